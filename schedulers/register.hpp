// Registers every scheduling policy of this library by name.
#pragma once

#include "runtime/execution/scheduler.hpp"

namespace cwf::schedulers {

void register_all(SchedulerRegistry& registry);

}  // namespace cwf::schedulers
