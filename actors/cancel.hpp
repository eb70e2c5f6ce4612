// cancel: case cancellation (pattern CWP4). Each event it fires on names a case, a wave or a key,
// and the case is cancelled in the actors of its scope (runtime/actor/case_id.hpp): their
// queues and windows lose the case's events, they are told to retract it, and the actors named
// in `retract` emit a retraction record for every output they remember having produced for it.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Cancel final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "events that each name a case to cancel"}},
      {{"out", "each event fired on, once its case is cancelled"}}};
  struct Options {
    // Not set: the case is the wave of the event fired on. Set: the case is the key this gives
    // on the event fired on, matched by `match` on the events in scope.
    std::optional<Expression> key;
    std::shared_ptr<const Expression> match;
    std::vector<std::string> scope;
    std::vector<std::string> retract;
    std::size_t remember = 1000;
  };
  explicit Cancel(Options options);
  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  // Each output follows from the window fired on: nothing to keep in a checkpoint.
  Checkpointing checkpointing() const override { return Checkpointing::none; }

  // For a cancellation asked from outside the workflow (cwf serve's API), as if this actor had
  // fired on an event naming the case: whether its cases are keys (else waves), the expression
  // events in scope are matched with, and its scope (declared in initialize()).
  bool cancels_keys() const { return options_.key.has_value(); }
  const std::shared_ptr<const Expression>& match() const { return options_.match; }
  std::size_t scope() const { return scope_; }

 private:
  Options options_;
  std::size_t scope_ = 0;
};

ActorType cancel_type();

}  // namespace cwf::actors
