// join (pattern CWP2, stream join): two inputs `left` and `right`, each with its own window,
// joined in event time: the output depends only on the windows of each side and their times,
// never on the order in which the two sides reach the actor (so not on the director).
//
// Windows of both sides are taken in window-time order (TimeAlignedInputs): the windows of time t
// are joined once both sides have moved past t (or the input has ended), so a window waits for
// the other side to catch up. Each side's windows must come in time order (time windows do); a
// window earlier than one its side already delivered is late: counted and left out.
//
// match: latest (default). Each window is joined with the latest window of the other side at or
// before its time (the last one of that time, in arrival order). Two windows of the same time
// that are each other's latest are joined once. `trigger` says whose windows are joined so: both
// sides' (a symmetric stream join), or only the left's (an as-of join: each order with the price
// of its time) or only the right's.
//
// match: time. Each window is joined with every window of the other side of the same time (the
// same period of time windows of equal size and step, all groups of it).
//
// Joining two windows pairs every token of the left window (in order) with every token of the
// right one (in order); for each pair for which `on` holds, the value of `emit` is emitted,
// stamped with the time of the later window. `on` and `emit` see the variables `left` and
// `right`; the input `/` is the left token. Outputs come in time order: the windows of time t
// joined with the windows of the other side, left windows first.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "actors/time_aligned_inputs.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class Join final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"left", "windows of the left stream, in time order"},
       {"right", "windows of the right stream, in time order"}},
      {{"out", "the value of `emit` for each joined pair, in time order"}}};
  enum class Match { latest, time };
  enum class Trigger { both, left, right };
  Join(Match match, Trigger trigger, std::optional<Expression> on, Expression emit);
  void fire(FiringContext& context) override;
  void end_of_input(FiringContext& context) override;
  // The windows waiting for the other side and, with match: latest, each side's latest one.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;
  // Its outputs are stamped with the time of a settled batch: never earlier than the frontier.
  Timestamp output_progress(Timestamp inputs) const override {
    return std::min(inputs, inputs_.frontier());
  }

 private:
  using Tokens = std::vector<Value>;
  using Inputs = TimeAlignedInputs<Tokens>;
  void release(FiringContext& context, bool end_of_input);
  void join_batch(FiringContext& context, Timestamp time, const std::vector<Tokens>& lefts,
                  const std::vector<Tokens>& rights);
  void join_windows(FiringContext& context, const Tokens& left, const Tokens& right);

  Match match_;
  Trigger trigger_;
  std::optional<Expression> on_;
  Expression emit_;
  Inputs inputs_;
  // match: latest — the latest window of each side released so far, if any.
  std::optional<Tokens> latest_[2];
};

ActorType join_type();

}  // namespace cwf::actors
