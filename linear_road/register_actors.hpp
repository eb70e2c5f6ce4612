// The Linear Road actor types (lr_source, lr_segment_statistics, lr_accident_detection, lr_toll,
// lr_daily_expenditure, lr_answer_sink) for workflows/linear_road.yaml.
#pragma once

#include "runtime/loading/actor_registry.hpp"

namespace cwf::lr {

void register_actors(ActorRegistry& registry);

}  // namespace cwf::lr
