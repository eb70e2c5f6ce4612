// Registers the dependency-guard actors with an actor registry.
#pragma once

#include "runtime/loading/actor_registry.hpp"

namespace cwf::guards {

void register_actors(ActorRegistry& registry);

}  // namespace cwf::guards
