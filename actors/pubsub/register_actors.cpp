#include "actors/pubsub/register_actors.hpp"

namespace cwf::pubsub {

void register_actors(ActorRegistry& registry) {
  (void)registry;
}

}  // namespace cwf::pubsub
