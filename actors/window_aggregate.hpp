// aggregate: one aggregate (count, sum, avg, min, max, or a user Aggregate) per window, computed
// incrementally per group: of each window it adds the events it does not hold yet and
// compensates those that left (see Window: group, arrival numbers, contiguous), instead of
// recomputing the window. O(1) amortised per event for count/sum/avg and for min/max (monotonic
// deque). `recompute` folds every window from scratch instead (the baseline).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/aggregates.hpp"
#include "actors/fifo_vector.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/actor/window.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"
#include "runtime/time/clock.hpp"

namespace cwf::actors {

// The per-group incremental state, usable without an actor (tests, benchmarks).
class IncrementalAggregate {
 public:
  // `value`: what to aggregate from each token (none: `true` per event, for count).
  IncrementalAggregate(AggregateFactory factory, std::optional<Expression> value, bool recompute);

  // The aggregate of the window. A value expression that fails on a token counts as null and
  // is reported through `error` (once per evaluation: recomputation evaluates every window).
  Value apply(const Window& window, const std::function<void(const std::string&)>& error = {});
  // Values evaluated (the work done): the window sizes summed when recomputing, about one per
  // event incrementally.
  std::uint64_t evaluated() const { return evaluated_; }

  // Checkpoints: each group's aggregate state and the values of its last window (by arrival
  // number), so that the next window compensates and accumulates exactly as it would have.
  bool checkpointable() const;
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  struct Held {
    std::uint64_t seq;
    Value value;
  };
  struct Group {
    std::unique_ptr<Aggregate> aggregate;
    FifoVector<Held> held;  // the values of the group's last window, by arrival number
  };
  Value value_of(const Event& event, const std::function<void(const std::string&)>& error);
  // Adds `v` to `aggregate`; a value the aggregate refuses (min of a string and a number) is
  // reported through `error` and left out: the result is null.
  static Value accumulate(Aggregate& aggregate, Value v,
                          const std::function<void(const std::string&)>& error);

  AggregateFactory factory_;
  std::optional<Expression> value_;
  bool recompute_;
  std::vector<Group> groups_;
  std::unique_ptr<Aggregate> scratch_;
  std::uint64_t evaluated_ = 0;
};

// How aggregate writes the window's bounds (the `window_times` parameter): numbers counted in
// `unit` (an int when the time is a whole number of units, else a double), or ISO-8601 strings
// in UTC.
struct WindowTimes {
  bool iso = false;
  Duration unit = kSecond;

  Value of(Timestamp time) const;
};

// Output per window: {window_start, window_end, group: <key>, <as>: <result>, count: <events in
// the window>}; the window's bounds (Window::start / end) only with `times`, `group` only with
// group-by on the input, `count` only when <as> is another name. The fields are always distinct:
// <as> may be none of the others.
class WindowAggregate final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "the windows to aggregate"}},
                                        {{"out", "one record per window"}}};
  WindowAggregate(AggregateFactory factory, std::optional<Expression> value, std::string as,
                  bool recompute, std::optional<WindowTimes> times = std::nullopt);
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override {
    return state_.checkpointable() ? Checkpointing::own : Checkpointing::unsupported;
  }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  IncrementalAggregate state_;
  std::string as_;
  std::optional<WindowTimes> times_;
  // The output's schema without and with the group field, interned once.
  const Schema* schema_[2];
};

ActorType aggregate_type();

}  // namespace cwf::actors
