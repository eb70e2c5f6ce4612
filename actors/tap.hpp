// tap: passes every token through on `out` and copies those matching `where` (all of them when
// it is not set) to `tap`, a view of the data flowing at that point of the workflow.
#pragma once

#include <optional>

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Tap final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "tokens"}},
      {{"out", "every token, unchanged"}, {"tap", "copies of the tokens matching `where`"}}};
  static constexpr int kOut = 0;
  static constexpr int kTap = 1;

  explicit Tap(std::optional<Expression> where);
  void fire(FiringContext& context) override;
  // Each output follows from the window fired on: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }
  // `where` may be changed while the workflow runs.
  void adopt_parameter(std::string_view param, Actor& rebuilt) override;

 private:
  std::optional<Expression> where_;
};

ActorType tap_type();

}  // namespace cwf::actors
