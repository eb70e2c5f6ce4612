#include "actors/pubsub/register_actors.hpp"

#include "actors/pubsub/broker_actor.hpp"
#include "actors/pubsub/nats_dispatch.hpp"
#include "actors/pubsub/nats_publish.hpp"
#include "actors/pubsub/nats_subscribe.hpp"

namespace cwf::pubsub {

void register_actors(ActorRegistry& registry) {
  (void)registry;
  // Content-based brokers and overlays
  registry.add(broker_type());
  // Across processes: NATS
  registry.add(nats_publish_type());
  registry.add(nats_subscribe_type());
  registry.add(nats_dispatch_type());
}

}  // namespace cwf::pubsub
