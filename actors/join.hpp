// join (pattern CWP2, stream join): two inputs `left` and `right`, each with its own window.
//
// match: latest (default). The actor keeps the most recent window it fired on from each side.
// A window from one side is joined with the kept window of the other side (nothing is emitted
// while the other side has had no window yet), then replaces the kept window of its own side.
// Which window is "most recent" depends on the order the actor receives windows from the two
// sides: of the windows ready on both ports it takes the earliest window time first, but a
// window still on its way from a slower branch is not seen.
//
// match: time. A window is joined only with the windows of the other side that have the same
// window time (the same period of time windows of equal size and step), whatever the order they
// arrive in: each pair of windows of equal time is joined once, when the later of the two arrives.
// A window is kept while the other side may still deliver a window of its time, and forgotten
// once the other side has delivered a later one.
//
// Joining two windows pairs every token of the triggering window (in order) with every token of
// the other window (in order); for each pair for which `on` holds, the value of `emit` is
// emitted. `on` and `emit` see the variables `left` and `right`; the input `/` is the token of
// the triggering side.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/actor_registry.hpp"
#include "runtime/expression.hpp"

namespace cwf::actors {

class Join final : public Actor {
 public:
  enum class Match { latest, time };
  Join(Match match, std::optional<Expression> on, Expression emit);
  void fire(FiringContext& context) override;

 private:
  struct Kept {
    Timestamp time = 0;
    std::vector<Value> tokens;
  };
  void join(FiringContext& context, int side, const std::vector<Value>& mine,
            const std::vector<Value>& theirs);

  Match match_;
  std::optional<Expression> on_;
  Expression emit_;
  // match: latest — the last window of each side, if any.
  std::optional<Kept> latest_[2];
  // match: time — the tokens of the windows that may still meet a partner, by window time.
  std::map<Timestamp, std::vector<Value>> waiting_[2];
  Timestamp seen_[2] = {kNoTime, kNoTime};
  static constexpr Timestamp kNoTime = INT64_MIN;
};

ActorType join_type();

}  // namespace cwf::actors
