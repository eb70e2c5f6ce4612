// fold: keyed state. Each event's key (`key`) selects a state; `update` computes the key's new
// state from the old one (`state`, null for a key not seen yet) and the event (`/`), and `emit`
// what to send on from the new state (`state`), the old one (`previous`) and the event. A null
// new state forgets the key. With `forget_after`, a key whose latest event is that far behind the
// latest event time is forgotten as events arrive, so memory follows the keys still in use.
//
// The state table of a workflow (a database table in Neophytou's Linear Road, section 5.5.1):
// the accidents in force at each place, an account's balance, a session's progress. Events are
// handled one by one in the order they arrive (behind a window, each event of the window in
// order), so the result depends only on that order.
#pragma once

#include <optional>

#include "actors/keyed_states.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

struct FoldOptions {
  Expression key;
  Expression update;
  std::optional<Expression> emit;  // not set: the new state (nothing for a null one)
  Duration forget_after = 0;       // 0: keys are kept until their state is null
};

class Fold final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "events, each with a key"}},
      {{"out", "what `emit` makes of each event (by default the key's new state)"}}};
  explicit Fold(FoldOptions options);
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  // The keys with their states and latest event times, the latest event time of all.
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

  std::size_t keys() const { return table_.size(); }

 private:
  void handle(const Event& event, FiringContext& context);

  FoldOptions options_;
  KeyedStates table_;
};

// The variables of `update` and `emit`: state (index 0), previous (index 1).
const ExprEnvironment& fold_environment();

ActorType fold_type();

}  // namespace cwf::actors
