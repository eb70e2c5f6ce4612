#include "actors/gsm/compiled_model.hpp"

#include <algorithm>
#include <map>

#include "actors/gsm/condition_analysis.hpp"
#include "actors/gsm/model_loader.hpp"

namespace cwf::gsm {

std::shared_ptr<const CompiledModel> CompiledModel::compile(Model model,
                                                            const RuleOptions& options) {
  RuleSet rules = derive_rules(model, options);
  DependencyGraph graph = DependencyGraph::build(model, rules);
  std::shared_ptr<CompiledModel> compiled(
      new CompiledModel(std::move(model), std::move(rules), std::move(graph)));
  compiled->compile_checks();
  compiled->build_plans();
  return compiled;
}

std::shared_ptr<const CompiledModel> CompiledModel::load(const std::string& path,
                                                         const RuleOptions& options) {
  return compile(load_model_file(path), options);
}

CompiledModel::CompiledModel(Model model, RuleSet rules, DependencyGraph graph)
    : model_(std::move(model)), rules_(std::move(rules)), graph_(std::move(graph)) {
  words_ = std::max<std::size_t>(1, (model_.status_count() + 63) / 64);
  std::vector<std::string> fields;
  for (const DataAttribute& d : model_.data)
    fields.push_back(d.name);
  fields.push_back("latestIncEvent");
  data_schema_ = Schema::intern(fields);
}

void CompiledModel::compile_checks() {
  // Conditions shared by several rules (a guard gives a guard rule and reopening rules) are
  // compiled once.
  std::map<int, int> compiled_condition;
  for (const PacRule& rule : rules_.rules) {
    RuleCheck check;
    check.consequent = rule.consequent.attribute;
    check.consequent_value = rule.consequent.value;
    check.prerequisite = rule.prerequisite.attribute;
    check.prerequisite_value = rule.prerequisite.value;
    check.trigger = rule.trigger.kind;
    check.trigger_event = rule.trigger.event;
    check.trigger_attribute = rule.trigger.attribute;
    check.trigger_value = rule.trigger.value;
    std::vector<StatusLiteral> literals;
    if (rule.parent_open >= 0) literals.push_back({rule.parent_open, true});
    if (rule.condition >= 0) {
      const ConditionInfo& info = model_.conditions[static_cast<std::size_t>(rule.condition)];
      if (info.literals) {
        literals.insert(literals.end(), info.literals->begin(), info.literals->end());
      } else {
        auto [it, added] =
            compiled_condition.try_emplace(rule.condition, static_cast<int>(conditions_.size()));
        if (added) {
          ExprEnvironment environment;
          for (int attribute : info.status_read)
            environment.declare(status_variable(model_.status_name(attribute)));
          conditions_.push_back(
              {Expression::compile(info.expression, environment), info.status_read});
        }
        check.condition = it->second;
      }
    }
    check.masks_begin = static_cast<std::uint32_t>(masks_.size());
    std::map<std::uint32_t, WordMask> by_word;
    for (const StatusLiteral& l : literals) {
      auto word = static_cast<std::uint32_t>(l.attribute / 64);
      WordMask& mask = by_word[word];
      mask.word = word;
      (l.value ? mask.ones : mask.zeros) |= std::uint64_t{1} << (l.attribute % 64);
    }
    for (const auto& [word, mask] : by_word)
      masks_.push_back(mask);
    check.masks_count = static_cast<std::uint32_t>(masks_.size()) - check.masks_begin;
    checks_.push_back(check);
  }
}

void CompiledModel::build_plans() {
  auto in_graph_order = [&](std::vector<std::uint32_t>& plan) {
    std::stable_sort(plan.begin(), plan.end(), [&](std::uint32_t a, std::uint32_t b) {
      return graph_.position(pdg_node(rules_.rules[a].consequent)) <
             graph_.position(pdg_node(rules_.rules[b].consequent));
    });
  };
  const auto latest = static_cast<int>(model_.data.size());
  for (std::size_t r = 0; r < rules_.rules.size(); ++r)
    if (!rules_.rules[r].vacuous) full_plan_.push_back(static_cast<std::uint32_t>(r));
  in_graph_order(full_plan_);
  for (std::size_t e = 0; e < model_.events.size(); ++e) {
    const EventType& event = model_.events[e];
    auto updates = [&](int data) {
      return data == latest || event.updates_all ||
             std::find(event.updates.begin(), event.updates.end(), data) != event.updates.end();
    };
    // Roots: the rules the event itself triggers, and those reading data it may change.
    std::vector<int> roots;
    for (const PacRule& rule : rules_.rules) {
      if (rule.vacuous) continue;
      bool root =
          rule.trigger.kind == Trigger::Kind::external && rule.trigger.event == static_cast<int>(e);
      if (!root && rule.condition >= 0)
        for (int d : model_.conditions[static_cast<std::size_t>(rule.condition)].data_read)
          root = root || updates(d);
      if (root) roots.push_back(pdg_node(rule.consequent));
    }
    std::vector<bool> reach = graph_.reachable(roots);
    std::vector<int> nodes;
    for (int n : graph_.order())
      if (reach[static_cast<std::size_t>(n)]) nodes.push_back(n);
    epdgs_.push_back(std::move(nodes));
    std::vector<std::uint32_t> plan;
    for (std::uint32_t r : full_plan_) {
      const PacRule& rule = rules_.rules[r];
      if (!reach[static_cast<std::size_t>(pdg_node(rule.consequent))]) continue;
      // A rule waiting for another incoming event cannot fire in this step.
      if (rule.trigger.kind == Trigger::Kind::external && rule.trigger.event != static_cast<int>(e))
        continue;
      plan.push_back(r);
    }
    plans_.push_back(std::move(plan));
  }
}

std::vector<SuperRule> CompiledModel::super_rules() const {
  std::vector<SuperRule> merged;
  for (std::size_t r = 0; r < rules_.rules.size(); ++r) {
    const PacRule& rule = rules_.rules[r];
    if (rule.vacuous) continue;
    auto same = std::find_if(merged.begin(), merged.end(), [&](const SuperRule& s) {
      return s.prerequisite == rule.prerequisite && s.consequent == rule.consequent;
    });
    if (same == merged.end()) {
      merged.push_back({rule.prerequisite, rule.consequent, {}});
      same = merged.end() - 1;
    }
    same->rules.push_back(static_cast<int>(r));
  }
  return merged;
}

}  // namespace cwf::gsm
