// split: one event per element of an array token (or of the array an expression selects), the
// element itself or what `each` makes of it (seeing the token as `/`, the element as `element`
// and its 0-based position as `index`).
#pragma once

#include <optional>

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Split final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "tokens holding arrays"}},
                                        {{"out", "the elements, one event each"}}};
  // No path: the token itself is the array. No `each`: the element itself.
  explicit Split(std::optional<Expression> path, std::optional<Expression> each = std::nullopt);
  // What `each` is compiled against: element, index.
  static const ExprEnvironment& each_environment();
  void fire(FiringContext& context) override;
  // Each output follows from the window fired on: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }

 private:
  std::optional<Expression> path_;
  std::optional<Expression> each_;
};

ActorType split_type();

}  // namespace cwf::actors
