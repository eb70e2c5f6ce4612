// counter: counts the events it receives and emits the running count (an int) for each firing.
#pragma once

#include <cstdint>

#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Counter final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "events to count"}},
                                        {{"out", "the number of events received so far (int)"}}};
  Counter();
  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;
  std::int64_t count() const { return count_; }

 private:
  std::int64_t count_ = 0;
};

ActorType counter_type();

}  // namespace cwf::actors
