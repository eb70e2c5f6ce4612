// The actor types and scheduling policies the `cwf` command knows: everything the libraries
// register.
#pragma once

#include "runtime/actor_registry.hpp"
#include "runtime/scheduler.hpp"

namespace cwf::cli {

const ActorRegistry& actor_registry();
const SchedulerRegistry& scheduler_registry();

}  // namespace cwf::cli
