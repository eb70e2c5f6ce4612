#include "actors/gsm/wfu_rule_unit.hpp"

#include "actors/gsm/wfu_messages.hpp"
#include "runtime/expressions/expr_error.hpp"

namespace cwf::gsm {

namespace {
const Value kFalse(false);
const Value kNull;
}  // namespace

WfuRuleUnit::WfuRuleUnit(std::shared_ptr<const WfuPlan> plan, int unit)
    : plan_(std::move(plan)), self_(unit), spec_(plan_->units()[static_cast<std::size_t>(unit)]) {
  value_slot_.assign(plan_->units().size(), -1);
  toggle_slot_.assign(plan_->units().size(), -1);
  for (std::size_t i = 0; i < spec_.reads_values.size(); ++i)
    value_slot_[static_cast<std::size_t>(spec_.reads_values[i])] = static_cast<int>(i);
  for (std::size_t i = 0; i < spec_.reads_toggles.size(); ++i)
    toggle_slot_[static_cast<std::size_t>(spec_.reads_toggles[i])] = static_cast<int>(i);
  now_.resize(spec_.reads_values.size());
  record_slots_.resize(static_cast<std::size_t>(plan_->data_count()));
}

WfuRuleUnit::Instance& WfuRuleUnit::instance(std::int64_t x) {
  Instance& state = instances_[x];
  if (state.values.empty()) {
    state.values.resize(spec_.reads_values.size());
    state.toggles.resize(spec_.reads_toggles.size());
  }
  return state;
}

void WfuRuleUnit::receive(const Value& message, std::vector<Value>& publish) {
  const std::int64_t x = wfu::int_field(message, wfu::x);
  const std::int64_t t = wfu::int_field(message, wfu::t);
  Instance& state = instance(x);
  const std::string_view kind = wfu::kind_of(message);
  if (kind == wfu::kEvent) {
    const Value& versions = wfu::field(message, wfu::ver);
    state.rows[t] = {static_cast<int>(wfu::int_field(message, wfu::e)),
                     versions.as_array()[static_cast<std::size_t>(self_)].as_int(), versions};
  } else if (kind == wfu::kValue) {
    const int slot = value_slot_[static_cast<std::size_t>(wfu::int_field(message, wfu::u))];
    if (slot >= 0) state.values[static_cast<std::size_t>(slot)][t] = wfu::field(message, wfu::v);
  } else if (kind == wfu::kToggle) {
    const int slot = toggle_slot_[static_cast<std::size_t>(wfu::int_field(message, wfu::u))];
    if (slot >= 0)
      state.toggles[static_cast<std::size_t>(slot)][t] = wfu::field(message, wfu::v).as_bool();
  }
  state.visit_in_order(
      [&](std::int64_t step, const Row& row) { return try_fire(x, state, step, row, publish); });
}

bool WfuRuleUnit::try_fire(std::int64_t x, Instance& state, std::int64_t t, const Row& row,
                           std::vector<Value>& publish) {
  const WfuPlan& plan = *plan_;
  const auto versions = row.versions.as_array();
  auto previous_version = [&](int unit) {
    return versions[static_cast<std::size_t>(unit)].as_int();
  };
  // A value at a version; version 0 is the initial one (status false, data null).
  auto lookup = [&](std::size_t slot, std::int64_t version) -> const Value* {
    if (version == 0)
      return plan.units()[static_cast<std::size_t>(spec_.reads_values[slot])].kind ==
                     WfuKind::gateway
                 ? &kFalse
                 : &kNull;
    auto found = state.values[slot].find(version);
    return found == state.values[slot].end() ? nullptr : &found->second;
  };
  // Step-t values of everything read, and the previous values of s and π: all must be known.
  for (std::size_t slot = 0; slot < spec_.reads_values.size(); ++slot) {
    const int owner = spec_.reads_values[slot];
    now_[slot] = nullptr;
    if (spec_.reads_now[slot]) {
      const std::int64_t version = plan.takes_part(row.event, owner) ? t : previous_version(owner);
      now_[slot] = lookup(slot, version);
      if (now_[slot] == nullptr) return false;
    }
    if (spec_.reads_previous[slot] && lookup(slot, previous_version(owner)) == nullptr)
      return false;
  }
  for (std::size_t slot = 0; slot < spec_.reads_toggles.size(); ++slot)
    if (plan.takes_part(row.event, spec_.reads_toggles[slot]) && !state.toggles[slot].count(t))
      return false;

  auto previous_status = [&](int attribute) {
    const auto slot =
        static_cast<std::size_t>(value_slot_[static_cast<std::size_t>(plan.gateway(attribute))]);
    return lookup(slot, previous_version(plan.gateway(attribute)))->as_bool();
  };
  auto status_now = [&](int attribute) {
    return now_[static_cast<std::size_t>(
                    value_slot_[static_cast<std::size_t>(plan.gateway(attribute))])]
        ->as_bool();
  };
  bool toggled = false;
  if (spec_.super_rule >= 0) {
    const SuperRule& super = plan.super_rules()[static_cast<std::size_t>(spec_.super_rule)];
    const CompiledModel& compiled = plan.compiled();
    const Model& model = compiled.model();
    const bool before = previous_status(spec_.attribute);
    const bool prerequisite =
        previous_status(super.prerequisite.attribute) == super.prerequisite.value;
    bool holds = false;
    for (int r : super.rules) {
      if (holds) break;
      const PacRule& rule = compiled.rules().rules[static_cast<std::size_t>(r)];
      switch (rule.trigger.kind) {
        case Trigger::Kind::none:
          break;
        case Trigger::Kind::external:
          if (rule.trigger.event != row.event) continue;
          break;
        case Trigger::Kind::status: {
          const int unit = plan.rule_unit(rule.trigger.attribute, rule.trigger.value);
          if (!plan.takes_part(row.event, unit)) continue;
          if (!state.toggles[static_cast<std::size_t>(toggle_slot_[static_cast<std::size_t>(unit)])]
                   .at(t))
            continue;
          break;
        }
      }
      if (rule.parent_open >= 0 && !status_now(rule.parent_open)) continue;
      if (rule.condition >= 0) {
        const ConditionInfo& info = model.conditions[static_cast<std::size_t>(rule.condition)];
        if (info.literals) {
          bool all = true;
          for (const StatusLiteral& l : *info.literals)
            all = all && status_now(l.attribute) == l.value;
          if (!all) continue;
        } else {
          const RuleCheck& check = compiled.checks()[static_cast<std::size_t>(r)];
          const CompiledCondition& condition =
              compiled.conditions()[static_cast<std::size_t>(check.condition)];
          for (int d : info.data_read)
            record_slots_[static_cast<std::size_t>(d)] = *now_[static_cast<std::size_t>(
                value_slot_[static_cast<std::size_t>(plan.data_unit(d))])];
          // Moving the slots out leaves them null again, ready for the next condition.
          const Value record = Value::record(compiled.data_schema(), std::move(record_slots_));
          variables_.clear();
          for (int a : condition.variables)
            variables_.emplace_back(status_now(a));
          bool matches = false;
          try {
            matches = condition.expression.matches(record, Variables(variables_));
          } catch (const ExprError&) {
            ++condition_errors_;  // as the centralized engine: an error counts as false
          }
          if (!matches) continue;
        }
      }
      holds = true;
    }
    toggled = prerequisite && before != spec_.polarity && holds;
  }

  const std::int64_t gateway_previous = previous_version(plan.gateway(spec_.attribute));
  publish.push_back(
      wfu::make_message(wfu::kToggle, self_, row.event, t, x, Value(toggled), gateway_previous));
  publish.push_back(wfu::make_message(wfu::kVisited, self_, row.event, t, x));
  // Versions older than those read now are never read again: x's later steps read newer ones.
  for (std::size_t slot = 0; slot < spec_.reads_values.size(); ++slot) {
    auto& table = state.values[slot];
    table.erase(table.begin(), table.lower_bound(previous_version(spec_.reads_values[slot])));
  }
  for (auto& table : state.toggles)
    table.erase(table.begin(), table.upper_bound(t));
  return true;
}

}  // namespace cwf::gsm
