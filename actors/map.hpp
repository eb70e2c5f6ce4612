// map: emits the value of an expression over each token.
#pragma once

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Map final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "tokens"}},
                                        {{"out", "the expression's value for each token"}}};
  explicit Map(Expression expression);
  void fire(FiringContext& context) override;
  // Each output follows from the window fired on: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }

 private:
  Expression expression_;
};

ActorType map_type();

}  // namespace cwf::actors
