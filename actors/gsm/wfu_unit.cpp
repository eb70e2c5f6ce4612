#include "actors/gsm/wfu_unit.hpp"

#include "actors/gsm/wfu_rule_unit.hpp"
#include "actors/gsm/wfu_sink.hpp"
#include "actors/gsm/wfu_state_units.hpp"

namespace cwf::gsm {

std::unique_ptr<WfuUnit> make_wfu_unit(std::shared_ptr<const WfuPlan> plan, int unit) {
  switch (plan->units()[static_cast<std::size_t>(unit)].kind) {
    case WfuKind::rule:
      return std::make_unique<WfuRuleUnit>(std::move(plan), unit);
    case WfuKind::gateway:
      return std::make_unique<WfuStatusGateway>(std::move(plan), unit);
    case WfuKind::data:
      return std::make_unique<WfuDataUnit>(std::move(plan), unit);
    case WfuKind::sink:
      return std::make_unique<WfuSink>(std::move(plan), unit);
    case WfuKind::source:
      break;
  }
  return nullptr;
}

}  // namespace cwf::gsm
