// Registers every actor type of the standard library (see docs/actors.md).
#pragma once

#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

void register_all(ActorRegistry& registry);

}  // namespace cwf::actors
