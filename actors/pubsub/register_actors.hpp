// Registers the content-based publish/subscribe actors (brokers, overlays, NATS) with an actor
// registry.
#pragma once

#include "runtime/loading/actor_registry.hpp"

namespace cwf::pubsub {

void register_actors(ActorRegistry& registry);

}  // namespace cwf::pubsub
