// partition: sends each event to one of its outputs out0..out<N-1> by the hash of a key
// expression, so that the events of one key always take the same output, in the order they came.
// It is what a connection with `partition_by` into an actor with `parallelism: N` becomes (the
// loader puts one in front of the replicas); it can also be used on its own.
#pragma once

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Partition final : public Actor {
 public:
  static inline const PortSpec kOutput{"out<i>", "the events whose key hashes to i"};
  static inline const ActorPorts kPorts{{{"in", "events to partition"}}, {kOutput}};
  Partition(Expression by, int outputs);
  void fire(FiringContext& context) override;
  // Where an event goes follows from its key alone: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }
  // The output for `key` among `outputs`: the same in every process of one build.
  static int output_for(const Value& key, int outputs);

 private:
  Expression by_;
  int outputs_;
};

ActorType partition_type();

}  // namespace cwf::actors
