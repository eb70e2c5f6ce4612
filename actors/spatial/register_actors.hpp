// Registers the spatial actors (sky regions and catalogs on Boost.Geometry R-trees).
#pragma once

#include "runtime/loading/actor_registry.hpp"

namespace cwf::spatial {

void register_actors(ActorRegistry& registry);

}  // namespace cwf::spatial
