// lookup: each event of `in` looked up in a table that the events of `table` keep, in event time
// (an as-of lookup: a report with its segment's statistics of the minute before, an order with
// the price list in force).
//
// Each `table` event changes the state of its key (`key`): the key's new state is `update` over
// `state` (the old one, null for a key not seen) and the event `/`, by default the event itself;
// null forgets the key. Each `in` event finds the state of the key `probe` gives (`found`, null
// when the key has none), or with `probe_each` the states of the array of keys it gives (`found`
// an array of as many), and `emit` says what to send on from the event `/` and `found`; null
// sends nothing.
//
// In event time, whatever order the two inputs reach the actor in (TimeAlignedInputs): an `in`
// event of time t sees the table as the `table` events up to t, included, left it. So it waits
// until the table side has moved past t: through a later table event or, between them, through
// the progress marks the engine sends along the table's path (Actor::takes_progress): a table
// that windows fill once a minute still answers as soon as its input has moved past t, not a
// minute later. Outputs come in time order, stamped with the `in` event's time. Each side's
// events must come in time order; an earlier one is late (counted, left out). With
// `forget_after`, a key unchanged for that long (by the events' times) is forgotten.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "actors/keyed_states.hpp"
#include "actors/time_aligned_inputs.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

struct LookupOptions {
  Expression key;
  std::optional<Expression> update;  // not set: the table event is the new state
  Expression probe;
  bool probe_each = false;  // probe gives an array of keys
  Expression emit;
  Duration forget_after = 0;
};

class Lookup final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "the events to look up, in time order"},
       {"table", "the events that keep the table, in time order"}},
      {{"out", "what `emit` makes of each `in` event, in time order"}}};
  static constexpr int kIn = 0, kTable = 1;
  explicit Lookup(LookupOptions options);
  void fire(FiringContext& context) override;
  void end_of_input(FiringContext& context) override;
  bool takes_progress() const override { return true; }
  // What it sends is stamped with settled times: never earlier than the frontier.
  Timestamp output_progress(Timestamp inputs) const override {
    return std::min(inputs, inputs_.frontier());
  }
  // The events waiting for the other side, and the table.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

  std::size_t keys() const { return table_.size(); }
  // Events waiting for the other side now, and the most ever waiting at once (how far the table's
  // path lagged).
  std::size_t waiting() const { return inputs_.pending(); }
  std::size_t most_waiting() const { return most_waiting_; }

 private:
  using Inputs = TimeAlignedInputs<Value>;
  void release(FiringContext& context, bool end_of_input);
  void change(const Value& event, Timestamp time, FiringContext& context);
  void look_up(const Value& event, FiringContext& context);
  Value state_of(const Value& key);

  LookupOptions options_;
  Inputs inputs_;
  KeyedStates table_;
  std::size_t most_waiting_ = 0;
  std::vector<Value> states_;  // look_up()'s buffer for probe_each
};

// The variables: `state` for update (index 0), `found` for emit (index 0).
const ExprEnvironment& lookup_update_environment();
const ExprEnvironment& lookup_emit_environment();

ActorType lookup_type();

}  // namespace cwf::actors
