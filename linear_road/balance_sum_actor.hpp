// lr_balance_sum: adds up the parts of each balance answer that the replicas of lr_toll send
// (workflows/linear_road_partitioned.yaml). Each replica holds what was charged on its own
// expressways and answers every balance query with that part; the answer is their sum, sent once
// the last part of the query (each part says how many there are) has come. The parts of one
// query may come in any order and interleaved with other queries' parts.
#pragma once

#include <cstdint>
#include <limits>
#include <unordered_map>

#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::lr {

class BalanceSumActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "balance parts from the replicas of lr_toll (its `balances` output)"}},
      {{"out", "answer records of type 2, one per query"}}};
  BalanceSumActor();
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;
  void end_of_input(FiringContext& context) override;

 private:
  struct Open {
    std::int64_t balance = 0;
    std::int64_t parts_seen = 0;
    // The earliest part's, for the response time.
    std::int64_t released = std::numeric_limits<std::int64_t>::max();
  };
  std::unordered_map<std::int32_t, Open> open_;  // by qid
};

ActorType balance_sum_actor_type();

}  // namespace cwf::lr
