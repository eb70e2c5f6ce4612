#include "actors/register.hpp"

#include "actors/cancel.hpp"
#include "actors/correlate.hpp"
#include "actors/counter.hpp"
#include "actors/csv_sink.hpp"
#include "actors/csv_source.hpp"
#include "actors/expression_actor.hpp"
#include "actors/filter.hpp"
#include "actors/fold.hpp"
#include "actors/generator.hpp"
#include "actors/interval_join.hpp"
#include "actors/join.hpp"
#include "actors/jsonl_sink.hpp"
#include "actors/jsonl_source.hpp"
#include "actors/lookup.hpp"
#include "actors/map.hpp"
#include "actors/merge.hpp"
#include "actors/partition.hpp"
#include "actors/split.hpp"
#include "actors/stdout_sink.hpp"
#include "actors/tap.hpp"
#include "actors/window_aggregate.hpp"
#include "actors/workflow_view.hpp"

namespace cwf::actors {

void register_all(ActorRegistry& registry) {
  // Sources
  registry.add(csv_source_type());
  registry.add(jsonl_source_type());
  registry.add(generator_type());
  // Transforms
  registry.add(filter_type());
  registry.add(map_type());
  registry.add(split_type());
  registry.add(merge_type());
  registry.add(partition_type());
  registry.add(counter_type());
  registry.add(aggregate_type());
  registry.add(tap_type());
  registry.add(workflow_view_type());
  registry.add(expression_actor_type());
  registry.add(fold_type());
  registry.add(lookup_type());
  registry.add(join_type());
  registry.add(interval_join_type());
  registry.add(correlate_type());
  registry.add(cancel_type());
  // Sinks
  registry.add(csv_sink_type());
  registry.add(jsonl_sink_type());
  registry.add(stdout_type());
}

}  // namespace cwf::actors
