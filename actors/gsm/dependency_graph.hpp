// The polarized dependency graph (PDG) of a model's rules: nodes (+,s) and (-,s) for every status
// attribute s; an edge u -> c when a rule with consequent c reads u in its antecedent (a status
// event ±u gives the edge from that polarity, a condition or parent attribute u the edges from
// both). Its topological order is the order in which a B-step evaluates rules; a cycle makes the
// model invalid. Vacuous reopening rules add no edges (they would add self-loops -m -> -m).
#pragma once

#include <string>
#include <vector>

#include "actors/gsm/model.hpp"
#include "actors/gsm/pac_rules.hpp"
#include "actors/gsm/status_literal.hpp"

namespace cwf::gsm {

inline int pdg_node(StatusLiteral literal) {
  return 2 * literal.attribute + (literal.value ? 0 : 1);
}
inline StatusLiteral pdg_literal(int node) {
  return {node / 2, node % 2 == 0};
}

struct PdgEdge {
  int from = 0;
  int to = 0;
  int rule = 0;  // the first rule that gave the edge (RuleSet::rules index)
};

class DependencyGraph {
 public:
  // Throws LoadError, at the sentry of a rule on the cycle, naming the cycle's nodes.
  static DependencyGraph build(const Model& model, const RuleSet& rules);

  std::size_t node_count() const { return successors_.size(); }
  const std::vector<PdgEdge>& edges() const { return edges_; }
  const std::vector<int>& successors(int node) const {
    return successors_[static_cast<std::size_t>(node)];
  }
  // Longest path from a node without predecessors: nodes of one stratum are independent.
  int stratum(int node) const { return stratum_[static_cast<std::size_t>(node)]; }
  int strata() const { return strata_; }
  // Nodes by stratum, then by number: the evaluation order.
  const std::vector<int>& order() const { return order_; }
  int position(int node) const { return position_[static_cast<std::size_t>(node)]; }
  // Nodes reachable from `roots` (the roots included).
  std::vector<bool> reachable(const std::vector<int>& roots) const;
  // Graphviz: one rank per stratum, edges labelled by nothing (rules are `cwf gsm rules`).
  std::string to_dot(const Model& model) const;

 private:
  std::vector<std::vector<int>> successors_;
  std::vector<PdgEdge> edges_;
  std::vector<int> stratum_;
  std::vector<int> order_;
  std::vector<int> position_;
  int strata_ = 0;
};

// "+RA", "-ED:cp".
std::string node_name(const Model& model, int node);

}  // namespace cwf::gsm
