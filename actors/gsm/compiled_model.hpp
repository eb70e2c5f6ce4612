// A model ready to run: its rules, dependency graph and, per incoming event type, the rules a
// B-step has to evaluate (those at the graph nodes the event can reach: its ePDG), in graph
// order. Built once and shared, read-only, by every engine and actor running the model; the
// publish/subscribe mapping reads the same pieces (super rules, ePDGs, the attributes an event
// updates).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "actors/gsm/dependency_graph.hpp"
#include "actors/gsm/model.hpp"
#include "actors/gsm/pac_rules.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/values/value.hpp"

namespace cwf::gsm {

// Rules with the same prerequisite and consequent, merged into ⟨π, ∨αi, γ⟩.
struct SuperRule {
  StatusLiteral prerequisite;
  StatusLiteral consequent;
  std::vector<int> rules;  // RuleSet::rules indexes, the disjuncts
};

// One rule in the form the engine evaluates: every name resolved to an index, status-literal
// conditions (and the parent-open term) folded into bit masks per status word.
struct RuleCheck {
  int consequent = 0;
  bool consequent_value = true;
  int prerequisite = 0;
  bool prerequisite_value = true;
  Trigger::Kind trigger = Trigger::Kind::none;
  int trigger_event = -1;
  int trigger_attribute = -1;
  bool trigger_value = true;
  std::uint32_t masks_begin = 0;  // CompiledModel::masks() range
  std::uint32_t masks_count = 0;
  int condition = -1;  // CompiledModel::conditions() index, for conditions that are not literals
};

// Status word `word` must have all `ones` bits set and no `zeros` bit set.
struct WordMask {
  std::uint32_t word = 0;
  std::uint64_t ones = 0;
  std::uint64_t zeros = 0;
};

// A condition evaluated by the expression language: the status attributes it reads are its
// variables (in `variables` order), the instance's data record its input.
struct CompiledCondition {
  Expression expression;
  std::vector<int> variables;
};

class CompiledModel {
 public:
  // Throws LoadError for a cyclic dependency graph.
  static std::shared_ptr<const CompiledModel> compile(Model model, const RuleOptions& options = {});
  static std::shared_ptr<const CompiledModel> load(const std::string& path,
                                                   const RuleOptions& options = {});

  const Model& model() const { return model_; }
  const RuleSet& rules() const { return rules_; }
  const DependencyGraph& graph() const { return graph_; }
  std::size_t status_words() const { return words_; }

  // The rules a B-step for an event of this type evaluates, in dependency-graph order.
  const std::vector<std::uint32_t>& plan(int event) const {
    return plans_[static_cast<std::size_t>(event)];
  }
  // Every rule in dependency-graph order: what an engine without ePDGs evaluates.
  const std::vector<std::uint32_t>& full_plan() const { return full_plan_; }
  // The nodes of the event's ePDG.
  const std::vector<int>& epdg(int event) const { return epdgs_[static_cast<std::size_t>(event)]; }
  std::vector<SuperRule> super_rules() const;

  const std::vector<RuleCheck>& checks() const { return checks_; }
  const std::vector<WordMask>& masks() const { return masks_; }
  const std::vector<CompiledCondition>& conditions() const { return conditions_; }
  // Fields of the record conditions read: the data attributes, then latestIncEvent.
  const Schema* data_schema() const { return data_schema_; }

 private:
  CompiledModel(Model model, RuleSet rules, DependencyGraph graph);
  void compile_checks();
  void build_plans();

  Model model_;
  RuleSet rules_;
  DependencyGraph graph_;
  std::size_t words_ = 1;
  std::vector<RuleCheck> checks_;  // one per rule, same index
  std::vector<WordMask> masks_;
  std::vector<CompiledCondition> conditions_;
  std::vector<std::vector<std::uint32_t>> plans_;
  std::vector<std::vector<int>> epdgs_;
  std::vector<std::uint32_t> full_plan_;
  const Schema* data_schema_ = nullptr;
};

}  // namespace cwf::gsm
