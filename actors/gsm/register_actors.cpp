#include "actors/gsm/register_actors.hpp"

#include "actors/gsm/gsm_actor.hpp"

namespace cwf::gsm {

void register_actors(ActorRegistry& registry) {
  registry.add(gsm_actor_type());
}

}  // namespace cwf::gsm
