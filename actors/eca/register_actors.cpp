#include "actors/eca/register_actors.hpp"

#include "actors/eca/broker_actor.hpp"
#include "actors/eca/detector_actor.hpp"
#include "actors/eca/history_sink.hpp"
#include "actors/eca/raise_actor.hpp"
#include "actors/eca/rules_actor.hpp"
#include "actors/eca/time_events.hpp"

namespace cwf::eca {

void register_actors(ActorRegistry& registry) {
  registry.add(raise_actor_type());
  registry.add(time_events_type());
  registry.add(detector_actor_type());
  registry.add(rules_actor_type());
  registry.add(broker_actor_type());
  registry.add(history_sink_type());
}

}  // namespace cwf::eca
