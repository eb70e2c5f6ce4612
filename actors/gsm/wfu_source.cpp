#include "actors/gsm/wfu_source.hpp"

#include <stdexcept>

#include "actors/gsm/wfu_messages.hpp"

namespace cwf::gsm {

WfuSource::WfuSource(std::shared_ptr<const WfuPlan> plan) : plan_(std::move(plan)) {
  const auto events = plan_->compiled().model().events.size();
  rules_take_part_.assign(events, false);
  for (std::size_t e = 0; e < events; ++e)
    for (int s = 0; s < plan_->status_count() && !rules_take_part_[e]; ++s)
      rules_take_part_[e] = plan_->takes_part(static_cast<int>(e), plan_->rule_unit(s, true)) ||
                            plan_->takes_part(static_cast<int>(e), plan_->rule_unit(s, false));
}

std::int64_t WfuSource::submit(std::int64_t instance, int event, std::span<const DataUpdate> data,
                               std::vector<Value>& publish) {
  const WfuPlan& plan = *plan_;
  const Model& model = plan.compiled().model();
  if (event < 0 || event >= static_cast<int>(model.events.size()))
    throw std::invalid_argument("no event type " + std::to_string(event));
  const std::string& name = model.events[static_cast<std::size_t>(event)].name;
  for (const DataUpdate& update : data) {
    if (update.first < 0 || update.first >= plan.latest_event_data() ||
        !plan.updates(event, update.first))
      throw std::invalid_argument(name + " does not carry data attribute " +
                                  std::to_string(update.first));
    if (!fits(model.data[static_cast<std::size_t>(update.first)].type, update.second))
      throw std::invalid_argument(name + ": a value of the wrong type for " +
                                  model.data[static_cast<std::size_t>(update.first)].name);
  }
  const std::size_t units = plan.units().size();
  std::vector<std::int64_t>& versions = versions_[instance];
  if (versions.empty()) versions.assign(units, 0);
  const std::int64_t t = ++clock_;

  if (rules_take_part_[static_cast<std::size_t>(event)]) {
    scratch_.clear();
    for (std::int64_t version : versions)
      scratch_.emplace_back(version);
    publish.push_back(wfu::make_message(wfu::kEvent, -1, event, t, instance, Value(), 0,
                                        Value::array(std::span<const Value>(scratch_))));
  }
  for (int d = 0; d < plan.data_count(); ++d) {
    const int unit = plan.data_unit(d);
    if (!plan.takes_part(event, unit)) continue;
    Value carried;  // [new value] when the event sets d, null when it leaves d as it is
    if (d == plan.latest_event_data()) {
      carried = Value::array({Value(name)});
    } else {
      for (const DataUpdate& update : data)
        if (update.first == d) carried = Value::array({update.second});  // the last one wins
    }
    publish.push_back(wfu::make_message(wfu::kDatum, unit, event, t, instance, carried,
                                        versions[static_cast<std::size_t>(unit)]));
  }
  for (std::size_t unit = 1; unit < units; ++unit)
    if (plan.takes_part(event, static_cast<int>(unit))) versions[unit] = t;
  return t;
}

}  // namespace cwf::gsm
