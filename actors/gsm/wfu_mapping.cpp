#include "actors/gsm/wfu_mapping.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "actors/gsm/wfu_messages.hpp"

namespace cwf::gsm {

std::string_view wfu_mapping_name(WfuMapping mapping) {
  return mapping == WfuMapping::blm ? "blm" : "cam";
}

WfuMapping parse_wfu_mapping(std::string_view name) {
  if (name == "blm") return WfuMapping::blm;
  if (name == "cam") return WfuMapping::cam;
  throw std::invalid_argument("mapping must be blm or cam, not '" + std::string(name) + "'");
}

std::shared_ptr<const WfuPlan> WfuPlan::build(std::shared_ptr<const CompiledModel> compiled,
                                              WfuMapping mapping) {
  auto plan = std::make_shared<WfuPlan>();
  plan->compiled_ = std::move(compiled);
  plan->mapping_ = mapping;
  plan->super_rules_ = plan->compiled_->super_rules();
  plan->status_count_ = static_cast<int>(plan->compiled_->model().status_count());
  plan->data_count_ = static_cast<int>(plan->compiled_->model().data.size()) + 1;
  plan->add_units();
  plan->compute_participation();
  plan->add_subscriptions();
  return plan;
}

bool WfuPlan::updates(int event, int data) const {
  if (data == latest_event_data()) return true;
  const EventType& type = compiled_->model().events[static_cast<std::size_t>(event)];
  return type.updates_all ||
         std::find(type.updates.begin(), type.updates.end(), data) != type.updates.end();
}

void WfuPlan::add_units() {
  const Model& model = compiled_->model();
  units_.push_back({WfuKind::source, "source"});
  for (int s = 0; s < status_count_; ++s) {
    for (bool polarity : {true, false}) {
      WfuUnitSpec unit{WfuKind::rule, (polarity ? "+" : "-") + model.status_name(s)};
      unit.attribute = s;
      unit.polarity = polarity;
      for (std::size_t r = 0; r < super_rules_.size(); ++r)
        if (super_rules_[r].consequent == StatusLiteral{s, polarity})
          unit.super_rule = static_cast<int>(r);
      units_.push_back(std::move(unit));
    }
    WfuUnitSpec gateway{WfuKind::gateway, model.status_name(s)};
    gateway.attribute = s;
    units_.push_back(std::move(gateway));
  }
  for (int d = 0; d < data_count_; ++d) {
    WfuUnitSpec unit{WfuKind::data, "data:" + (d == latest_event_data()
                                                   ? std::string("latestIncEvent")
                                                   : model.data[static_cast<std::size_t>(d)].name)};
    unit.attribute = d;
    units_.push_back(std::move(unit));
  }
  first_sink_ = static_cast<int>(units_.size());
  if (mapping_ == WfuMapping::blm) {
    units_.push_back({WfuKind::sink, "sink"});
  } else {
    for (std::size_t e = 0; e < model.events.size(); ++e) {
      WfuUnitSpec sink{WfuKind::sink, "sink:" + model.events[e].name};
      sink.sink_event = static_cast<int>(e);
      units_.push_back(std::move(sink));
    }
  }
}

void WfuPlan::compute_participation() {
  const std::size_t events = compiled_->model().events.size();
  participation_.assign(events * units_.size(), false);
  expected_visited_.assign(events, 0);
  for (std::size_t e = 0; e < events; ++e) {
    const int event = static_cast<int>(e);
    std::vector<bool> in_epdg(2 * static_cast<std::size_t>(status_count_), false);
    for (int node : compiled_->epdg(event))
      in_epdg[static_cast<std::size_t>(node)] = true;
    auto part = [&](int unit) -> std::vector<bool>::reference {
      return participation_[e * units_.size() + static_cast<std::size_t>(unit)];
    };
    const bool all = mapping_ == WfuMapping::blm;
    part(source()) = true;
    for (int s = 0; s < status_count_; ++s) {
      const bool plus = all || in_epdg[static_cast<std::size_t>(pdg_node({s, true}))];
      const bool minus = all || in_epdg[static_cast<std::size_t>(pdg_node({s, false}))];
      part(rule_unit(s, true)) = plus;
      part(rule_unit(s, false)) = minus;
      part(gateway(s)) = plus || minus;
    }
    for (int d = 0; d < data_count_; ++d)
      part(data_unit(d)) = all || updates(event, d);
    part(sink(event)) = true;
    for (int unit = 1; unit < first_sink_; ++unit)
      if (part(unit)) ++expected_visited_[e];
  }
}

int WfuPlan::units_ever_taking_part() const {
  int count = 0;
  const std::size_t events = compiled_->model().events.size();
  for (std::size_t unit = 0; unit < units_.size(); ++unit) {
    bool any = false;
    for (std::size_t e = 0; e < events && !any; ++e)
      any = participation_[e * units_.size() + unit];
    count += any ? 1 : 0;
  }
  return count;
}

void WfuPlan::add_subscriptions() {
  const Model& model = compiled_->model();
  const int events = static_cast<int>(model.events.size());
  for (std::size_t index = 0; index < units_.size(); ++index) {
    WfuUnitSpec& unit = units_[index];
    const int self = static_cast<int>(index);
    switch (unit.kind) {
      case WfuKind::source:
        unit.advertisements.push_back(wfu::message_filter(wfu::kEvent));
        unit.advertisements.push_back(wfu::message_filter(wfu::kDatum));
        break;
      case WfuKind::rule: {
        unit.advertisements.push_back(wfu::message_filter(wfu::kToggle, self));
        unit.advertisements.push_back(wfu::message_filter(wfu::kVisited, self));
        if (mapping_ == WfuMapping::blm) {
          unit.subscriptions.push_back(wfu::message_filter(wfu::kEvent));
        } else {
          for (int e = 0; e < events; ++e)
            if (takes_part(e, self))
              unit.subscriptions.push_back(wfu::message_filter(wfu::kEvent, -1, e));
        }
        // What every disjunct reads: the consequent's and prerequisite's previous values, then
        // trigger toggles, parent and condition attributes, condition data.
        std::set<int> previous{gateway(unit.attribute)};
        std::set<int> values;
        std::set<int> toggles;
        if (unit.super_rule >= 0) {
          const SuperRule& super = super_rules_[static_cast<std::size_t>(unit.super_rule)];
          previous.insert(gateway(super.prerequisite.attribute));
          for (int r : super.rules) {
            const PacRule& rule = compiled_->rules().rules[static_cast<std::size_t>(r)];
            if (rule.trigger.kind == Trigger::Kind::status)
              toggles.insert(rule_unit(rule.trigger.attribute, rule.trigger.value));
            if (rule.parent_open >= 0) values.insert(gateway(rule.parent_open));
            if (rule.condition >= 0) {
              const ConditionInfo& info =
                  model.conditions[static_cast<std::size_t>(rule.condition)];
              for (int a : info.status_read)
                values.insert(gateway(a));
              if (info.literals)
                for (const StatusLiteral& l : *info.literals)
                  values.insert(gateway(l.attribute));
              if (!info.literals)
                for (int d : info.data_read)
                  values.insert(data_unit(d));
            }
          }
        }
        std::set<int> all = values;
        all.insert(previous.begin(), previous.end());
        unit.reads_values.assign(all.begin(), all.end());
        for (int v : unit.reads_values) {
          unit.reads_now.push_back(values.count(v) == 1);
          unit.reads_previous.push_back(previous.count(v) == 1);
        }
        unit.reads_toggles.assign(toggles.begin(), toggles.end());
        for (int v : unit.reads_values)
          unit.subscriptions.push_back(wfu::message_filter(wfu::kValue, v));
        for (int toggle : unit.reads_toggles)
          unit.subscriptions.push_back(wfu::message_filter(wfu::kToggle, toggle));
        break;
      }
      case WfuKind::gateway:
        unit.advertisements.push_back(wfu::message_filter(wfu::kValue, self));
        unit.advertisements.push_back(wfu::message_filter(wfu::kVisited, self));
        unit.subscriptions.push_back(
            wfu::message_filter(wfu::kToggle, rule_unit(unit.attribute, true)));
        unit.subscriptions.push_back(
            wfu::message_filter(wfu::kToggle, rule_unit(unit.attribute, false)));
        break;
      case WfuKind::data:
        unit.advertisements.push_back(wfu::message_filter(wfu::kValue, self));
        unit.advertisements.push_back(wfu::message_filter(wfu::kVisited, self));
        unit.subscriptions.push_back(wfu::message_filter(wfu::kDatum, self));
        break;
      case WfuKind::sink:
        unit.subscriptions.push_back(wfu::message_filter(wfu::kVisited, -1, unit.sink_event));
        break;
    }
  }
}

}  // namespace cwf::gsm
