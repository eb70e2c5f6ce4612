#include "actors/eca/register_actors.hpp"

#include "actors/eca/detector_actor.hpp"

namespace cwf::eca {

void register_actors(ActorRegistry& registry) {
  registry.add(detector_actor_type());
}

}  // namespace cwf::eca
