// Registers the composite-event detectors, ECA rules and the event history with an actor registry.
#pragma once

#include "runtime/loading/actor_registry.hpp"

namespace cwf::eca {

void register_actors(ActorRegistry& registry);

}  // namespace cwf::eca
