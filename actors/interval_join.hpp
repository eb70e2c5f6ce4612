// interval_join: pairs single events of two streams by key within a time bound, in event time
// ("each order with the payment for the same order within 10 minutes"; Flink's interval join).
//
// A left event l and a right event r are joined when their keys are equal (`left_key` of l ==
// `right_key` of r, compared as values, 2 == 2.0) and
//
//     l.time + lower <= r.time <= l.time + upper      (both bounds included)
//
// and `on`, if given, holds for the pair. Each such pair is emitted once on `out`, the value of
// `emit`, stamped with the later of the two times, in time order (TimeAlignedInputs: events of
// time t are taken once both sides have moved past t, or at the end of input; of the same time,
// left events first, each side in arrival order). For one event, its partners come in time order.
//
// An event that no partner can reach any more (l once everything up to l.time + upper has been
// taken; r once everything up to r.time - lower has) is forgotten; if it met none, it leaves on
// `left_unmatched` / `right_unmatched` unchanged, with its own time, in time order. So the state is
// bounded by the events of `upper - lower` (plus what waits for the other side to catch up) on an
// endless stream.
//
// Events whose key is null or fails are rejected (reported, counted). An event earlier than one
// its side already delivered is late (counted, left out).
#pragma once

#include <deque>
#include <optional>
#include <unordered_map>

#include "actors/time_aligned_inputs.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"
#include "runtime/values/value.hpp"

namespace cwf::actors {

struct IntervalJoinOptions {
  Expression left_key;
  Expression right_key;
  Duration lower = 0;  // relative to the left event's time; may be negative
  Duration upper = 0;
  std::optional<Expression> on;
  Expression emit;
};

class IntervalJoin final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"left", "the left stream, in time order"}, {"right", "the right stream, in time order"}},
      {{"out", "the value of `emit` for each joined pair, in time order"},
       {"left_unmatched", "left events that met no partner, once none can come"},
       {"right_unmatched", "right events that met no partner, once none can come"}}};
  static constexpr int kOut = 0, kLeftUnmatched = 1, kRightUnmatched = 2;
  explicit IntervalJoin(IntervalJoinOptions options);
  void fire(FiringContext& context) override;
  void end_of_input(FiringContext& context) override;
  // The events waiting for the other side, and each side's released events a partner may still
  // reach (with whether they met one).
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;
  // Unknown: an unmatched event leaves with its own time, behind the frontier.
  Timestamp output_progress(Timestamp) const override { return kNoProgress; }

  // Events held: released and still reachable by a partner, plus those waiting for the other
  // side (for tests of the state's bound).
  std::size_t held() const;

 private:
  struct Arrived {
    Value key;
    Value token;
  };
  using Inputs = TimeAlignedInputs<Arrived>;
  // The released events of one side that a partner may still reach, in time order, and their
  // sequence numbers by key.
  struct Side {
    struct Entry {
      Timestamp time;
      Value key;
      Value token;
      bool matched = false;
    };
    std::deque<Entry> entries;
    std::uint64_t first = 0;  // sequence number of entries.front()
    std::unordered_map<Value, std::deque<std::uint64_t>, ValueHash> by_key;
    Entry& at(std::uint64_t sequence) { return entries[sequence - first]; }
    std::uint64_t add(Timestamp time, Arrived&& arrived);
  };

  void release(FiringContext& context, bool end_of_input);
  void take_in(FiringContext& context, int side, Timestamp time, Arrived&& arrived);
  void join(FiringContext& context, Side::Entry& left, Side::Entry& right);
  void forget_unreachable(FiringContext& context);

  IntervalJoinOptions options_;
  Inputs inputs_;
  Side sides_[2];
};

ActorType interval_join_type();

}  // namespace cwf::actors
