#include "actors/gsm/wfu_state_units.hpp"

#include "actors/gsm/wfu_messages.hpp"

namespace cwf::gsm {

WfuStatusGateway::WfuStatusGateway(std::shared_ptr<const WfuPlan> plan, int unit)
    : plan_(std::move(plan)), self_(unit) {
  const int attribute = plan_->units()[static_cast<std::size_t>(unit)].attribute;
  plus_ = plan_->rule_unit(attribute, true);
  minus_ = plan_->rule_unit(attribute, false);
}

void WfuStatusGateway::receive(const Value& message, std::vector<Value>& publish) {
  if (wfu::kind_of(message) != wfu::kToggle) return;
  const std::int64_t x = wfu::int_field(message, wfu::x);
  Instance& state = instances_[x];
  Row& row = state.rows[wfu::int_field(message, wfu::t)];
  row.event = static_cast<int>(wfu::int_field(message, wfu::e));
  row.previous = wfu::int_field(message, wfu::p);
  ++row.received;
  if (wfu::field(message, wfu::v).as_bool()) ++row.toggles;
  state.visit_in_order([&](std::int64_t t, const Row& next) {
    const int expected = (plan_->takes_part(next.event, plus_) ? 1 : 0) +
                         (plan_->takes_part(next.event, minus_) ? 1 : 0);
    if (next.received < expected) return false;
    if (next.toggles > 1) ++double_toggles_;
    if (next.toggles > 0) state.value = !state.value;
    publish.push_back(wfu::make_message(wfu::kValue, self_, next.event, t, x, Value(state.value)));
    publish.push_back(
        wfu::make_message(wfu::kVisited, self_, next.event, t, x, Value(state.value)));
    return true;
  });
}

WfuDataUnit::WfuDataUnit(std::shared_ptr<const WfuPlan> plan, int unit)
    : plan_(std::move(plan)), self_(unit) {}

void WfuDataUnit::receive(const Value& message, std::vector<Value>& publish) {
  if (wfu::kind_of(message) != wfu::kDatum) return;
  const std::int64_t x = wfu::int_field(message, wfu::x);
  Instance& state = instances_[x];
  state.rows[wfu::int_field(message, wfu::t)] = {static_cast<int>(wfu::int_field(message, wfu::e)),
                                                 wfu::int_field(message, wfu::p),
                                                 wfu::field(message, wfu::v)};
  state.visit_in_order([&](std::int64_t t, const Row& next) {
    if (next.carried.is_array()) state.value = next.carried.as_array()[0];
    publish.push_back(wfu::make_message(wfu::kValue, self_, next.event, t, x, state.value));
    publish.push_back(wfu::make_message(wfu::kVisited, self_, next.event, t, x, state.value));
    return true;
  });
}

}  // namespace cwf::gsm
