// partition: sends each event to one of its outputs out0..out<N-1> by a key (RouteRule: by the
// key's hash, or with `how: modulo` the key modulo N), so that the events of one key always take
// the same output, in the order they came. Events for which `broadcast_when` holds go to every
// output instead, in their place among the others: a control event or a question every replica
// must see (each replica then sees it after exactly the events of its keys that came before it).
// A connection with `partition_by` into an actor with `parallelism: N` applies the same rule as
// its sender emits; the actor is for workflows that want the parts on ports of their own.
#pragma once

#include <memory>

#include "runtime/actor/actor.hpp"
#include "runtime/graph/route_rule.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Partition final : public Actor {
 public:
  static inline const PortSpec kOutput{"out<i>", "the events whose key picks output i"};
  static inline const ActorPorts kPorts{{{"in", "events to partition"}}, {kOutput}};
  explicit Partition(std::shared_ptr<const RouteRule> rule);
  void fire(FiringContext& context) override;
  // Where an event goes follows from its key alone: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }

 private:
  std::shared_ptr<const RouteRule> rule_;
};

ActorType partition_type();

}  // namespace cwf::actors
