// One workflow unit of a model mapped onto publish/subscribe (wfu_mapping.hpp): it is handed the
// publications its subscriptions matched, one at a time, and appends what it publishes. Units
// keep their state per instance, as multi-version tables keyed by ρ = (e, t, x); nothing else is
// shared between them, so a unit may run anywhere a broker reaches.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "actors/gsm/wfu_mapping.hpp"
#include "runtime/value.hpp"

namespace cwf::gsm {

class WfuUnit {
 public:
  virtual ~WfuUnit() = default;
  virtual void receive(const Value& message, std::vector<Value>& publish) = 0;
  // Rows (steps) received and not yet visited: 0 once the unit is quiescent.
  virtual std::size_t pending() const = 0;
};

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
