// One workflow unit of a model mapped onto publish/subscribe (wfu_mapping.hpp): it is handed the
// publications its subscriptions matched, one at a time, and appends what it publishes. Units
// keep their state per instance, as multi-version tables keyed by ρ = (e, t, x); nothing else is
// shared between them, so a unit may run anywhere a broker reaches.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "actors/gsm/wfu_mapping.hpp"
#include "runtime/values/value.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::gsm {

class WfuUnit {
 public:
  virtual ~WfuUnit() = default;
  virtual void receive(const Value& message, std::vector<Value>& publish) = 0;
  // Rows (steps) received and not yet visited: 0 once the unit is quiescent.
  virtual std::size_t pending() const = 0;
  // Checkpoints (wfu_snapshot.cpp): every instance's state, rows not yet visited included, in
  // instance order. restore replaces the unit's state; it throws SnapshotError for a state of
  // another plan (other numbers of inputs, an event or unit out of range).
  virtual void save(SnapshotWriter& out) const = 0;
  virtual void restore(SnapshotReader& in) = 0;
};

// The steps of one instance x a unit has received and not yet visited, by t. A unit visits x's
// steps strictly in order (the pseudo-clock): a row is next only when its `previous` (p, the last
// earlier step of x the unit took part in) is the step visited last.
template <class Row>
struct WfuStepRows {
  std::int64_t last_visited = 0;
  std::map<std::int64_t, Row> rows;

  // Visits the rows that are next, in order, while visit(t, row) returns true (false: the row
  // still waits for an input).
  template <class Visit>
  void visit_in_order(Visit&& visit) {
    while (!rows.empty()) {
      auto head = rows.begin();
      if (head->second.previous != last_visited) return;  // an earlier step is still to come
      if (!visit(head->first, head->second)) return;
      last_visited = head->first;
      rows.erase(head);
    }
  }
};

// WfuUnit::pending of a unit keeping WfuStepRows per instance.
template <class Instances>
std::size_t pending_rows(const Instances& instances) {
  std::size_t rows = 0;
  for (const auto& [x, state] : instances)
    rows += state.rows.size();
  return rows;
}

// A step a sink completed: every unit taking part reported `visited`; the gateways and data units
// among them with the value their attribute has after the step.
struct StepCompletion {
  int event = -1;
  std::int64_t time = 0;
  std::int64_t instance = 0;
  std::vector<std::pair<int, Value>> values;  // (unit, value)
};

// The unit `unit` of the plan (not the source, which is driven by submitted events: WfuSource).
std::unique_ptr<WfuUnit> make_wfu_unit(std::shared_ptr<const WfuPlan> plan, int unit);

}  // namespace cwf::gsm
