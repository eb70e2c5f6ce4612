#include "actors/gsm/pac_rules.hpp"

#include <algorithm>

namespace cwf::gsm {

std::string_view template_purpose(RuleTemplate kind) {
  switch (kind) {
    case RuleTemplate::guard_opens_stage:
      return "guard opens stage";
    case RuleTemplate::milestone_achieved:
      return "milestone achieved";
    case RuleTemplate::milestone_invalidated:
      return "milestone invalidated by its sentry";
    case RuleTemplate::reopening_invalidates:
      return "(re)opening the stage invalidates its milestones";
    case RuleTemplate::milestone_closes_stage:
      return "achieved milestone closes stage";
    case RuleTemplate::parent_closes_child:
      return "parent closing closes child";
  }
  return "";
}

std::array<std::size_t, kRuleTemplates> RuleSet::counts() const {
  std::array<std::size_t, kRuleTemplates> result{};
  for (const PacRule& rule : rules)
    ++result[static_cast<std::size_t>(rule.kind)];
  return result;
}

namespace {

PacRule from_sentry(RuleTemplate kind, const Sentry& sentry, StatusLiteral prerequisite,
                    StatusLiteral consequent, int stage) {
  PacRule rule;
  rule.kind = kind;
  rule.prerequisite = prerequisite;
  rule.trigger = sentry.trigger;
  rule.condition = sentry.condition;
  rule.consequent = consequent;
  rule.stage = stage;
  return rule;
}

}  // namespace

RuleSet derive_rules(const Model& model, const RuleOptions& options) {
  RuleSet set;
  std::vector<PacRule>& rules = set.rules;
  const int stage_count = static_cast<int>(model.stages.size());
  // Grouped by template, in model order within each, as the seeds list them.
  for (int s = 0; s < stage_count; ++s) {
    const Stage& stage = model.stages[static_cast<std::size_t>(s)];
    for (std::size_t g = 0; g < stage.guards.size(); ++g) {
      PacRule rule = from_sentry(RuleTemplate::guard_opens_stage, stage.guards[g].sentry,
                                 {s, false}, {s, true}, s);
      rule.parent_open = stage.parent;
      rule.guard = static_cast<int>(g);
      rules.push_back(rule);
    }
  }
  for (std::size_t m = 0; m < model.milestones.size(); ++m) {
    const Milestone& milestone = model.milestones[m];
    const int attribute = model.milestone_attribute(static_cast<int>(m));
    PacRule rule = from_sentry(RuleTemplate::milestone_achieved, milestone.achieving,
                               {milestone.stage, true}, {attribute, true}, milestone.stage);
    rule.milestone = static_cast<int>(m);
    rules.push_back(rule);
  }
  for (std::size_t m = 0; m < model.milestones.size(); ++m) {
    const Milestone& milestone = model.milestones[m];
    if (!milestone.invalidating) continue;
    const int attribute = model.milestone_attribute(static_cast<int>(m));
    PacRule rule = from_sentry(RuleTemplate::milestone_invalidated, *milestone.invalidating,
                               {attribute, true}, {attribute, false}, milestone.stage);
    rule.milestone = static_cast<int>(m);
    rules.push_back(rule);
  }
  for (int s = 0; s < stage_count; ++s) {
    const Stage& stage = model.stages[static_cast<std::size_t>(s)];
    for (std::size_t g = 0; g < stage.guards.size(); ++g) {
      const Sentry& sentry = stage.guards[g].sentry;
      for (int m : stage.milestones) {
        const int attribute = model.milestone_attribute(m);
        PacRule rule = from_sentry(RuleTemplate::reopening_invalidates, sentry, {attribute, true},
                                   {attribute, false}, s);
        rule.parent_open = stage.parent;
        rule.guard = static_cast<int>(g);
        rule.milestone = m;
        if (sentry.condition >= 0) {
          const auto& negated =
              model.conditions[static_cast<std::size_t>(sentry.condition)].negated_conjuncts;
          rule.vacuous = std::find(negated.begin(), negated.end(), attribute) != negated.end();
        }
        if (rule.vacuous && !options.keep_vacuous) {
          ++set.vacuous_omitted;
          continue;
        }
        rules.push_back(rule);
      }
    }
  }
  for (int s = 0; s < stage_count; ++s) {
    for (int m : model.stages[static_cast<std::size_t>(s)].milestones) {
      PacRule rule;
      rule.kind = RuleTemplate::milestone_closes_stage;
      rule.prerequisite = {s, true};
      rule.trigger = {Trigger::Kind::status, -1, model.milestone_attribute(m), true};
      rule.consequent = {s, false};
      rule.stage = s;
      rule.milestone = m;
      rules.push_back(rule);
    }
  }
  for (int s = 0; s < stage_count; ++s) {
    const Stage& stage = model.stages[static_cast<std::size_t>(s)];
    if (stage.parent < 0) continue;
    PacRule rule;
    rule.kind = RuleTemplate::parent_closes_child;
    rule.prerequisite = {s, true};
    rule.trigger = {Trigger::Kind::status, -1, stage.parent, false};
    rule.consequent = {s, false};
    rule.stage = s;
    rules.push_back(rule);
  }
  return set;
}

std::string literal_text(const Model& model, StatusLiteral literal) {
  return (literal.value ? "" : "not ") + model.status_name(literal.attribute);
}

std::string change_text(const Model& model, StatusLiteral literal) {
  return (literal.value ? "+" : "-") + model.status_name(literal.attribute);
}

std::string antecedent_text(const Model& model, const PacRule& rule) {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : " and ") + part; };
  switch (rule.trigger.kind) {
    case Trigger::Kind::none:
      break;
    case Trigger::Kind::external:
      add("on " + model.events[static_cast<std::size_t>(rule.trigger.event)].name);
      break;
    case Trigger::Kind::status:
      add("on " + change_text(model, {rule.trigger.attribute, rule.trigger.value}));
      break;
  }
  if (rule.condition >= 0) {
    const ConditionInfo& condition = model.conditions[static_cast<std::size_t>(rule.condition)];
    bool compound = !condition.literals || condition.literals->size() > 1;
    add(compound && !text.empty() ? "(" + condition.source + ")" : condition.source);
  }
  if (rule.parent_open >= 0) add(model.status_name(rule.parent_open));
  return text;
}

std::string rule_origin(const Model& model, const PacRule& rule) {
  const Stage& stage = model.stages[static_cast<std::size_t>(rule.stage)];
  switch (rule.kind) {
    case RuleTemplate::guard_opens_stage:
      return "guard " + stage.guards[static_cast<std::size_t>(rule.guard)].name + " of " +
             stage.name;
    case RuleTemplate::reopening_invalidates:
      return "guard " + stage.guards[static_cast<std::size_t>(rule.guard)].name + " of " +
             stage.name + (rule.vacuous ? ", vacuous" : "");
    case RuleTemplate::milestone_achieved:
    case RuleTemplate::milestone_invalidated:
    case RuleTemplate::milestone_closes_stage:
      return "milestone " + model.milestones[static_cast<std::size_t>(rule.milestone)].name;
    case RuleTemplate::parent_closes_child:
      return "stage " + stage.name + " in " + model.status_name(stage.parent);
  }
  return "";
}

const Sentry* rule_sentry(const Model& model, const PacRule& rule) {
  switch (rule.kind) {
    case RuleTemplate::guard_opens_stage:
    case RuleTemplate::reopening_invalidates:
      return &model.stages[static_cast<std::size_t>(rule.stage)]
                  .guards[static_cast<std::size_t>(rule.guard)]
                  .sentry;
    case RuleTemplate::milestone_achieved:
      return &model.milestones[static_cast<std::size_t>(rule.milestone)].achieving;
    case RuleTemplate::milestone_invalidated:
      return &*model.milestones[static_cast<std::size_t>(rule.milestone)].invalidating;
    default:
      return nullptr;
  }
}

}  // namespace cwf::gsm
