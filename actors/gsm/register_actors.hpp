// Registers the GSM artifact actors (the centralized engine and the workflow units of its
// publish/subscribe mapping) with an actor registry.
#pragma once

#include "runtime/loading/actor_registry.hpp"

namespace cwf::gsm {

void register_actors(ActorRegistry& registry);

}  // namespace cwf::gsm
