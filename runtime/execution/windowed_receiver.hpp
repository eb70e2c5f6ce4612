// The window operator on an input port (WindowSpec): splits the stream by the group-by key into
// WindowGroups, tracks how far time has got (event timestamps, the formation timeout on the
// workflow clock, the end of input), and hands the actor the earliest ready window among all
// groups: by window time, ties by the port's arrival order (Ready::after). That order is the
// order of the arrivals, not of how they were batched into firings: for a stream whose
// timestamps do not go back, the windows come out the same under every director (but for windows
// that close by the clock or by waves completing, which come out when that happens).
// What a window holds and when it is ready is decided by the port's step and size (WindowParts,
// built once here from the spec), which every group applies to its own queue.
//
// A window's time (what the time keeper stamps the firing's outputs with) is its end for windows
// that close by time ([s, e) gives e), else the timestamp of its last event; its wave is the last
// event's wave (none for an empty window).
//
// Events whose timestamp falls into a window that has already closed (by a later event, by the
// formation timeout) are discarded and counted as late. Events that no later window can hold,
// and that were not deleted as used, leave through the port's expired route (CWP6).
//
// Wave units: every event and every punctuation that reaches the port is a leaf of its wave
// (WaveCompletion, per producer: parallel branches of one wave complete it together). Waves are
// tracked per port, not per group: a punctuation carries no token to
// group by, and a wave is complete when everything it caused reached the port, whichever groups
// its events fell into. Each group counts the waves of its own events (in order of their first
// event in the group) and a group's wave window holds that group's events of its waves; it is
// ready once those waves are complete at the port. A wave whose events were all dropped upstream
// (only punctuations arrived) makes no window. Punctuations are never queued; windows without
// wave units drop them. A wave is forgotten once it is complete and none of its events is queued
// any more, so the state stays bounded on an endless stream.
#pragma once

#include <cstddef>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <span>
#include <unordered_map>
#include <vector>

#include "runtime/execution/group_index.hpp"
#include "runtime/execution/receiver.hpp"
#include "runtime/execution/wave_completion.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/values/value.hpp"
#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_parts.hpp"
#include "runtime/windows/window_spec.hpp"

namespace cwf {

class WindowedReceiver : public Receiver {
 public:
  explicit WindowedReceiver(WindowSpec spec);

  bool has_window() const override { return !ready_.empty(); }
  Window front_window() override;
  void finish_window(bool fired, bool consumed) override;
  void advance(Timestamp now, bool end_of_input) override;
  std::size_t buffered() const override { return live_; }
  std::size_t cancel(const CaseId& cancelled) override;
  bool wants_punctuation() const override { return spec_.uses_waves(); }
  // Progress: a window that closes by time is stamped with its end and closes once the port's
  // time reaches it; one that closes by tokens is stamped with its last event. Either way, once
  // the ready windows are fired on, nothing earlier than the port's latest time comes out (but
  // for the partial windows that the end of input and idle groups close, which a consumer
  // counts as late). Wave windows tell nothing of time.
  bool passes_progress() const override { return !spec_.uses_waves(); }
  void track_progress() override { tracks_progress_ = true; }
  Timestamp progress_time() const override {
    return tracks_progress_ && any_event_ ? max_time_ : kNoProgress;
  }
  void set_carried_sources(std::size_t producer,
                           const std::vector<std::uint32_t>& source_ordinals) override {
    waves_.set_carried_sources(producer, source_ordinals);
  }

  // Checkpoints (windowed_receiver_snapshot.cpp): the groups in their order (so that a window's
  // group index stays the same), each with its key and queue, the groups still to evaluate, the
  // ready windows and deadlines as queued, how far time has got, the wave completion state and
  // which groups hold which waves. The spec, its parts and the group-by keys are rebuilt.
  void snapshot(SnapshotWriter& out) const override;
  void restore(SnapshotReader& in) override;

  const WindowSpec& spec() const { return spec_; }
  // The port's size, step or formation timeout changes while the workflow runs (between two
  // firings of its actor; `spec` passes reshape_refusal against spec(), else
  // std::invalid_argument). Every group keeps its queue and the window it is forming keeps its
  // place: its lower bound (a time step's period start, a token or wave step's first arrival),
  // or for windows that look back, the event it ends at. That window takes the new size, and the
  // windows after it follow the new step from there. Windows ready but not handed to the actor
  // yet are formed again, in the order they became ready. Events that left (used, expired, late)
  // do not come back: a larger window fills from what is still queued. Every group is evaluated
  // again at once; deadlines follow the new timeout.
  void reshape(const WindowSpec& spec);
  // Groups alive (those that ended with WindowSpec::idle are not counted).
  std::size_t groups() const { return groups_.size() - free_.size(); }
  // Wave units: waves the port still tracks (incomplete, or with events queued), and the wave
  // records all groups keep.
  std::size_t open_waves() const { return waves_.open_waves(); }
  std::size_t wave_records() const;

 protected:
  void accept(Event&& event, std::size_t producer) override;

  // What the operator asks of its cell; tests that drive a receiver without one override them.
  virtual void expire(Event&& event);
  virtual void count_late();
  virtual void wake_at(Timestamp time);

 private:
  // A ready window's place in the order windows are handed out (ready_entry).
  struct Ready {
    // The window's time; for a group that ended (idle), the port's time when it did.
    Timestamp time;
    // Where it falls in the port's arrival order: 2a + 1 for a window whose last event is
    // arrival a (WindowGroup::window_last_arrival), so that windows of equal time come in the
    // order of the events that completed them; 2a for the windows that closed because their
    // group ended as arrival a came, which come before anything that event completes (its end
    // is decided before the event is queued); an empty window after all of its time.
    std::uint64_t after;
    // Between groups that ended together and between empty windows: the arrival number of the
    // group's first event (not its index: which slot a group takes after an ended one is freed
    // depends on when that group's windows were handed out).
    std::uint64_t tie;
    std::size_t group;
    bool operator>(const Ready& o) const {
      if (time != o.time) return time > o.time;
      if (after != o.after) return after > o.after;
      return tie != o.tie ? tie > o.tie : group > o.group;
    }
  };
  struct Deadline {
    Timestamp time;
    std::uint64_t version;
    std::size_t group;
    bool operator>(const Deadline& o) const { return time > o.time; }
  };
  struct GroupState {
    std::unique_ptr<WindowGroup> group;  // null: the slot is free (its group ended)
    // Its key (null without group-by, or while the slot is free): while the group is not ending,
    // index_ finds it by the key's hash.
    Value key;
    std::uint64_t version = 0;
    std::uint64_t first_arrival = 0;  // the arrival number of its first event (Ready::tie)
    // The deadline of the group's current entry in deadlines_ (the one of its version), none:
    // max. A group evaluated again for the same deadline adds no second entry.
    Timestamp armed = std::numeric_limits<Timestamp>::max();
    bool ready = false;
    bool dirty = false;
    // WindowSpec::idle: the group's latest event time, whether it has an entry in idle_marks_, and
    // whether it is ending (its key is no longer in index_: the key's next event makes a new
    // group). A slot keeps its arrival count for the group that takes it next (start_at).
    bool idle_armed = false;
    bool ending = false;
    Timestamp last_time = 0;
    // The port's latest event time when the group went quiet: it ends as the input would end
    // there (its windows up to that time), whenever its windows are formed.
    Timestamp ended_at = 0;
    std::uint64_t ended_before = 0;  // the arrival number of the event that ended it
    // How far the port had got before that event: the windows the group had complete then come
    // out in their ordinary place (as they would have, had it been evaluated then), only the
    // rest as the end closes them (ready_by_end).
    WindowProgress before_end;
    bool ready_by_end = false;
    // Whether the end closes its windows yet (it hides the empty ones: how many there are would
    // depend on when the group is evaluated), after those it had before.
    bool end_reached = false;
    std::uint64_t arrivals = 0;
  };
  // A group's latest event time when it was last checked for idleness (WindowSpec::idle).
  struct IdleMark {
    Timestamp time;
    std::size_t group;
    bool operator>(const IdleMark& o) const {
      return time != o.time ? time > o.time : group > o.group;
    }
    bool operator<(const IdleMark& o) const { return o > *this; }
  };

  // A wave with events queued (or once queued) in some group.
  struct QueuedWave {
    std::vector<std::size_t> groups;  // every group that received events of the wave
    std::size_t holding = 0;          // groups with events of the wave still queued
  };

  std::size_t group_of(const Event& event);
  // The group in index_ whose key is `key` (whose hash is `hash`), or GroupIndex::npos.
  std::size_t indexed_group(const Value& key, std::size_t hash) const {
    return index_.find(hash, [&](std::size_t g) { return groups_[g].key == key; });
  }
  // A group in a free slot, else a new one; returns its index.
  std::size_t make_group();
  // WindowSpec::idle: the groups quiet for that long before `latest` (the port's latest event
  // time, as an event arrives) start to end: their key leaves the index and they are evaluated
  // as at the end of input.
  void end_idle_groups(Timestamp latest);
  void watch_idle(IdleMark mark);
  // An ending group with no window left: what it still holds expires and its slot is freed.
  void free_group(std::size_t g);
  void queue(Event&& event);
  // Tracking progress: a punctuation says the input got to `time`.
  void advance_to(Timestamp time);
  void mark_dirty(std::size_t g);
  void wave_completed(const WaveTag& tag);
  void wave_left(const WaveTag& root);
  // The ready window of group g as the ready heap orders it.
  Ready ready_entry(std::size_t g) const;
  // Returns the deadline the group's next window waits for, if it got one.
  std::optional<Timestamp> evaluate(std::size_t g);
  // Windows ending at or before `closed` (event time) close: the dirty groups and the deadlines
  // it passes are evaluated.
  void close_through(Timestamp closed);
  // close_through(closed), then: at the end of input every group is evaluated (what is still
  // incomplete closes), else the cell is asked to run again at the next deadline.
  void settle(Timestamp closed);
  // wake_at, or while holding_, the earliest time asked for kept until release_held().
  void ask_wake_at(Timestamp time);
  // Sends what was held back while restoring (see holding_), and holds no more.
  void release_held();
  // Keeps an expired event until release_held() (out of line: the expiry callback stays a tail
  // call to expire()).
  void hold_expired(Event&& event);
  // Asks the cell to run again when the earliest pending window deadline times out.
  void wake_at_next_deadline();
  // A deadline in event time as a time on the workflow clock at which it has timed out.
  Timestamp due_on_clock(Timestamp deadline) const;
  WindowProgress progress() const;
  // The spec's size, step and timeout become `to`'s, the parts are rebuilt and every group
  // adopts them (see reshape).
  void adopt_shape(const WindowSpec& to);

  WindowSpec spec_;
  WindowParts parts_;  // the step and size all groups apply
  std::vector<Expression> keys_;
  Duration timeout_after_end_;
  std::vector<GroupState> groups_;
  std::vector<std::size_t> free_;  // slots of groups that ended, reused last first
  // Groups watched for idleness, by the time of their latest event when watched. Marks come
  // mostly in time order (events do): those go to a FIFO, O(1) each; the few that come behind
  // the FIFO's last go to a heap. end_idle_groups() takes the marks due from both in (time,
  // group) order, and checkpoints write them in that order, so where a mark was kept never shows.
  std::deque<IdleMark> idle_fifo_;
  std::priority_queue<IdleMark, std::vector<IdleMark>, std::greater<>> idle_marks_;
  std::vector<IdleMark> due_marks_;  // end_idle_groups()'s, reused
  Duration idle_after_ = 0;          // WindowSpec::idle, 0: groups never end
  // Group keys: one Value per key expression, several as an array. A lookup by a list of keys
  // finds an existing group without building the array.
  GroupIndex index_;
  std::vector<Value> key_parts_;  // reused for every event: no allocation per lookup
  std::vector<std::size_t> dirty_;
  std::vector<std::size_t> evaluating_;  // close_through()'s copy of dirty_, reused
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready_;
  std::priority_queue<Deadline, std::vector<Deadline>, std::greater<>> deadlines_;
  std::uint64_t arrivals_ = 0;  // events queued at the port, the next one's arrival number
  std::size_t live_ = 0;
  bool any_event_ = false;
  Timestamp max_time_ = 0;
  // Clock time minus event time, learned when the latest event arrived: the formation timeout
  // runs on the clock from when the stream could have closed a window, so a replay of old data
  // (event times far from the clock) times out only if the stream stalls, not at once.
  Timestamp clock_offset_ = 0;
  Timestamp offset_learned_for_ = 0;
  bool offset_known_ = false;
  Timestamp closed_through_ = 0;
  bool end_of_input_ = false;
  WindowGroup::ExpireFn expire_fn_;
  // A checkpoint restored into a changed window reshapes it at once, while the other cells are
  // not restored yet: what that sends (expired events) and asks for (a wake-up) waits until the
  // receiver is next used (accept, advance, front_window, finish_window).
  bool holding_ = false;
  std::vector<Event> held_expired_;
  Timestamp held_wake_ = kNoDeadline;
  WaveCompletion waves_;
  std::unordered_map<WaveRoot, QueuedWave, WaveRoot::Hash> queued_waves_;
  bool tracks_progress_ = false;  // set by Execution where progress is wanted downstream
};

}  // namespace cwf
