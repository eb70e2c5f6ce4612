// filter: passes on the tokens for which the `where` expression is truthy.
#pragma once

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Filter final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "tokens"}},
                                        {{"out", "the tokens for which `where` holds"}}};
  explicit Filter(Expression where);
  void fire(FiringContext& context) override;
  // Each output follows from the window fired on: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }
  // `where` may be changed while the workflow runs.
  void adopt_parameter(std::string_view param, Actor& rebuilt) override;

 private:
  Expression where_;
};

ActorType filter_type();

}  // namespace cwf::actors
