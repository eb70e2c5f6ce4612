// partition: sends each event to one of its outputs out0..out<N-1> by the hash of a key
// expression, so that the events of one key always take the same output, in the order they came.
// `how: modulo` takes the key, a whole number, modulo the number of outputs instead of its hash:
// a few dense keys (expressway numbers 0..L-1) then spread evenly, which a hash of so few keys
// does not promise.
// Events for which `broadcast_when` holds go to every output instead, in their place among the
// others: a control event or a question every replica must see (each replica then sees it after
// exactly the events of its keys that came before it).
// It is what a connection with `partition_by` into an actor with `parallelism: N` becomes (the
// loader puts one in front of the replicas); it can also be used on its own.
#pragma once

#include <optional>

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Partition final : public Actor {
 public:
  static inline const PortSpec kOutput{"out<i>", "the events whose key hashes to i"};
  static inline const ActorPorts kPorts{{{"in", "events to partition"}}, {kOutput}};
  enum class How { hash, modulo };
  Partition(Expression by, int outputs, How how = How::hash,
            std::optional<Expression> broadcast_when = std::nullopt);
  void fire(FiringContext& context) override;
  // Where an event goes follows from its key alone: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }
  // The output for `key` among `outputs`: the same in every process of one build.
  static int output_for(const Value& key, int outputs);
  // With `how: modulo`: the output for a whole-number key. Throws ExprError for another value.
  static int output_for_number(const Value& key, int outputs);

 private:
  Expression by_;
  int outputs_;
  How how_;
  std::optional<Expression> broadcast_when_;
};

ActorType partition_type();

}  // namespace cwf::actors
