// The actor types and scheduling policies the `cwf` command knows: everything the libraries
// register.
#pragma once

#include "runtime/execution/scheduler.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::cli {

const ActorRegistry& actor_registry();
const SchedulerRegistry& scheduler_registry();

}  // namespace cwf::cli
