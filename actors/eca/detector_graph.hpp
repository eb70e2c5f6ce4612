// The event detector graph of EVE §5.1 (after Sentinel): one node per event type, primitive types
// at the leaves, an edge from each component type to the composite types built from it. Equal
// subexpressions are one node, so `CON(RPL(SW1.Done), RPL(SW2.Done))` is detected once however
// many composites or rules use it. The graph is the type level only; the unconsumed occurrences
// each node holds live in an EventDetector, per workflow instance.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "actors/eca/event_expression.hpp"
#include "runtime/values/value.hpp"

namespace cwf::eca {

struct DetectorNode {
  EventOp op = EventOp::primitive;
  std::string type;                          // primitive type name or canonical composite text
  Value type_value;                          // the same, ready for the occurrences of the node
  std::vector<int> children;                 // component nodes, by argument position (the slot)
  Duration within = 0;                       // REP with a duration
  std::vector<std::pair<int, int>> parents;  // (composite node, slot this node fills there)
};

// The slot of a parent edge from a node that is both arguments of a binary composite
// (`CON(a, a)`): one edge, so that one occurrence reaches the composite once and cannot be paired
// with itself.
constexpr int kBothSlots = -1;

class DetectorGraph {
 public:
  // Adds the nodes of `expr` that are not there yet; returns the node of the whole expression.
  int add(const EventExpr& expr);
  const DetectorNode& node(int id) const { return nodes_[static_cast<std::size_t>(id)]; }
  std::size_t size() const { return nodes_.size(); }
  // The leaf of a primitive type, or -1 when no expression uses the type.
  int leaf(std::string_view type) const;
  // The node of an already added type, or -1.
  int find(std::string_view type) const;

 private:
  std::vector<DetectorNode> nodes_;
  std::map<std::string, int, std::less<>> by_type_;
};

}  // namespace cwf::eca
