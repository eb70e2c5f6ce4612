#include "linear_road/register_actors.hpp"

#include "linear_road/accident_detection_actor.hpp"
#include "linear_road/answer_sink_actor.hpp"
#include "linear_road/balance_sum_actor.hpp"
#include "linear_road/daily_expenditure_actor.hpp"
#include "linear_road/segment_statistics_actor.hpp"
#include "linear_road/source_actor.hpp"
#include "linear_road/toll_actor.hpp"

namespace cwf::lr {

void register_actors(ActorRegistry& registry) {
  registry.add(source_actor_type());
  registry.add(segment_statistics_actor_type());
  registry.add(accident_detection_actor_type());
  registry.add(toll_actor_type());
  registry.add(balance_sum_actor_type());
  registry.add(daily_expenditure_actor_type());
  registry.add(answer_sink_actor_type());
}

}  // namespace cwf::lr
