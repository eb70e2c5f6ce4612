// expression: fires on a whole window. An optional precondition `when` decides whether the actor
// accepts the window; `emit` computes the one token emitted for it. Both see the variables
// `window` (the window's tokens, an array) and `event` (its last token, also the input `/`), and
// the window's bounds and key, window_start, window_end and group (actors/window_variables.hpp).
// A window that fails `when` is declined: the actor does not fire, so a delete-used window keeps
// its events for the windows after it.
#pragma once

#include <optional>
#include <vector>

#include "actors/window_variables.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class ExpressionActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "windows of tokens"}},
      {{"out", "the value of `emit` for each window accepted by `when`"}}};
  ExpressionActor(std::optional<Expression> when, Expression emit);
  ~ExpressionActor() override;
  bool prefire(FiringContext& context) override;
  void fire(FiringContext& context) override;
  // Each output follows from the window fired on: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }

 private:
  // Fills vars_ (window, event, and the window variables when used) from the window being fired
  // on; unbind() lets go of them (and must, before the window's events may go: `window`
  // borrows their tokens).
  void bind(FiringContext& context);
  void unbind() noexcept;

  std::optional<Expression> when_;
  Expression emit_;
  std::size_t variables_needed_;
  Value vars_[2 + kWindowVariables];
  std::vector<const Value*> token_refs_;  // bind()'s buffer, kept between firings
};

// The variables of `when` and `emit`: window (index 0), event (index 1), then window_start,
// window_end and group.
const ExprEnvironment& expression_actor_environment();

ActorType expression_actor_type();

}  // namespace cwf::actors
