#include "actors/gsm/register_actors.hpp"

#include "actors/gsm/gsm_actor.hpp"
#include "actors/gsm/wfu_actors.hpp"

namespace cwf::gsm {

void register_actors(ActorRegistry& registry) {
  registry.add(gsm_actor_type());
  registry.add(gsm_pubsub_type());
}

}  // namespace cwf::gsm
