// merge: forwards the tokens of its `inputs` ports in0..in<N-1> (the family in<i>) on one output,
// earliest window first. (Several connections into one port merge as well; this actor gives them
// distinct ports.)
#pragma once

#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Merge final : public Actor {
 public:
  static inline const PortSpec kInput{"in<i>", "input i, for i = 0 .. inputs-1"};
  static inline const ActorPorts kPorts{{kInput}, {{"out", "the tokens of every input"}}};
  explicit Merge(int inputs);
  void fire(FiringContext& context) override;
  // Each output follows from the window fired on: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }
};

ActorType merge_type();

}  // namespace cwf::actors
