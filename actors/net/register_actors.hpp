// The network actors (push I/O over TCP), registered under their type names.
#pragma once

#include "runtime/loading/actor_registry.hpp"

namespace cwf::net {

void register_actors(ActorRegistry& registry);

}  // namespace cwf::net
