// One queue of a window operator (one per group-by key): the storage of its events and the
// window semantics applied to it, composed from the port's parts (WindowParts).
//
// Windows are numbered k = 0, 1, 2, ... The *step* (WindowStep) places window k and decides when
// its place is closed; the *size* (WindowSize) decides what it holds from there:
//
//   step  N tokens : events from the (k*N)-th arrival on                  (window_step_tokens)
//   step  D (time) : events with timestamp >= L = base + k*D (base: the group's first event's
//                    timestamp rounded down to a multiple of D); the window closes by time at
//                    L + D at the latest (L + size for a time size)       (window_step_time)
//   step  N waves  : events of the (k*N)-th wave (in order of first arrival) and later
//                                                                         (window_step_waves)
//   no step        : window k is evaluated when the k-th event arrives, and looks backwards
//                                                                         (window_step_every_event)
//
//   size  N tokens : the first N of those events (no step: the last N up to the k-th event)
//   size  D (time) : those with timestamp in [t0, t0 + D), t0 = L for a time step, else the
//                    timestamp of the first event at the lower bound (no step: (t_k - D, t_k];
//                    with a token step too: "the last D, every N tokens")
//   size  N waves  : the events of N consecutive waves starting with the lower bound's wave
//                    (no step: the waves of the last N up to the k-th event's)
//   no size        : everything still queued up to the step's next bound (unbounded)
//
// A window is ready when it is complete (N tokens present, time closed past its end, its waves
// complete), or at the end of input as soon as its lower bound was reached. Events that no
// later window can hold leave the queue as expired unless they were deleted as used.
//
// What is the same for every step and size is written here once: the queue (events, arrival
// numbers, wave ordinals, gone marks; what leaves, leaves oldest first), deleting used events,
// expiry below the next window's lower bound, passing over empty windows that are not shown
// (suppress_empty), late events, and handing the window out as a view of the queue. Forming the
// windows (evaluate, finish) is written once too, as templates over the step and the size
// (window_group_forming.hpp), compiled for each pair of kinds by the port's WindowShape.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "runtime/actor/event.hpp"
#include "runtime/windows/window_parts.hpp"
#include "runtime/windows/window_size.hpp"
#include "runtime/windows/window_spec.hpp"
#include "runtime/windows/window_step.hpp"

namespace cwf {

class SnapshotReader;
class SnapshotWriter;

class WindowGroup {
 public:
  using ExpireFn = std::function<void(Event&&)>;
  // Wave units: told the root of a wave whose last queued event in this group left the queue.
  using WaveLeftFn = std::function<void(const WaveTag&)>;

  // `parts`: the port's step and size and their shape (shared by its groups, outliving them).
  WindowGroup(const WindowSpec& spec, const WindowParts& parts, std::size_t* live_total,
              WaveLeftFn wave_left = nullptr)
      : spec_(spec), live_total_(live_total), wave_left_(std::move(wave_left)) {
    take_parts(parts);
    cursor_.awaits_event = parts.step->watches_arrivals();
    if (uses_waves_) waves_ = std::make_unique<WaveRecords>();
  }

  // The port's step or size changed (WindowedReceiver::reshape; `parts` are built from the new
  // spec, which `spec` of the constructor now holds, and differ from the old ones in amounts
  // only). The window being formed keeps its place and takes the new size; the windows after it
  // follow the new step. Called while no window is ready (drop_ready).
  void reshape(const WindowParts& parts) {
    step_->fold(cursor_);
    take_parts(parts);
  }
  // Forgets the ready window, which was not handed out: the cursor stays on it, and the next
  // evaluate() selects it again.
  void drop_ready();
  // A new group in the slot of one that ended (WindowSpec::idle) numbers its arrivals on from
  // the ended group's, so that an arrival number never names two events of one slot: what an
  // actor keeps per group (aggregate's incremental state) sees the old events as gone. Called
  // before anything is added; windows are counted from there.
  void start_at(std::uint64_t arrivals) {
    arrived_ = arrivals;
    cursor_.origin = arrivals;
  }
  // The group's end closes its windows (WindowSpec::idle; the receiver first hands out those the
  // group had complete before it ended): those with events still close, the empty ones the end
  // would close are passed over (how many there are would depend on when the ending group is
  // evaluated). It stays so when the port's parts change (reshape).
  void hide_empty_windows() {
    ending_ = true;
    show_empty_ = false;
  }
  // The group ends (its last windows were handed out): every event still queued leaves through
  // `expire`, oldest first.
  void expire_rest(const ExpireFn& expire);

  // Events with a timestamp before this fall into a window that closed by time (late).
  Timestamp late_before() const { return late_before_; }
  // Events with a timestamp before this that are not late fall only into windows already
  // finished by their size (a time step's window of N tokens that had its N when they came): no
  // window to come holds them, so they expire, as they would have had they arrived before those
  // windows were finished. Whether an event is late must not depend on when windows were
  // evaluated, only on the order of arrival.
  Timestamp finished_below() const { return cursor_.floor; }
  // For an event behind `latest`, the port's latest timestamp: also late for every window
  // `latest` closed, formed yet or not (WindowStep::first_open_lower_bound).
  Timestamp late_before(Timestamp latest) const {
    return std::max(late_before(), step_->first_open_lower_bound(cursor_, latest));
  }
  // `port_arrival`: the event's arrival number at the port, across its groups (ascending).
  // Returns true (wave units) when the event is the only queued one of its wave in the group.
  bool add(Event&& event, std::uint64_t port_arrival);
  // Wave units: the wave of `root` is complete at the port (see WindowedReceiver). Its windows
  // may now be ready; the group has to be evaluated again.
  void wave_complete(const WaveTag& root);
  // Waves the group still keeps a record of (those with queued events, and incomplete ones).
  std::size_t wave_records() const { return waves_ ? waves_->records.size() : 0; }

  // Whether the next window is ready (then window_*() describe it until finish()). If not,
  // `deadline` receives the timestamp whose passing would close it (kNever: none).
  // Empty windows that are not shown (see WindowSpec::suppress_empty) are passed over, which
  // may expire events.
  bool evaluate(const WindowProgress& progress, Timestamp* deadline, const ExpireFn& expire) {
    return shape_->evaluate(*this, progress, deadline, expire);
  }
  // A window whose events lie side by side in the queue is a view of the queue's storage (valid
  // until finish(); the storage may move when events are added, so ask again after add()).
  std::span<const Event> window_events() const {
    if (!view_) return window_;
    return {events_.data() + head_ + sel_.begin, sel_.end - sel_.begin};
  }
  Timestamp window_time() const { return sel_.time; }
  // The ready window's interval when it is cut by time (see WindowInterval), else none.
  const std::optional<WindowInterval>& window_interval() const { return sel_.interval; }
  const WaveTag* window_wave() const {
    std::span<const Event> events = window_events();
    return events.empty() ? nullptr : &events.back().wave;
  }
  // Arrival numbers of the window's events in the group, and whether the window holds every
  // queued event between its first and last (see Window).
  std::span<const std::uint64_t> window_seqs() const {
    if (!view_) return window_seqs_;
    return {seqs_.data() + head_ + sel_.begin, sel_.end - sel_.begin};
  }
  std::uint64_t window_first_seq() const {
    std::span<const std::uint64_t> seqs = window_seqs();
    return seqs.empty() ? arrived_ : seqs.front();
  }
  bool window_contiguous() const { return view_ || window_contiguous_; }
  // The arrival number at the port of the ready window's last event (kNoArrival for an empty
  // window): windows of equal time from different groups are handed out in that order, which
  // is the order of the events that completed them, however arrivals were batched.
  static constexpr std::uint64_t kNoArrival = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t window_last_arrival() const {
    return sel_.count() > 0 ? port_arrival(sel_.last()) : kNoArrival;
  }

  // The actor is done with the ready window: delete its events when `delete_used`, move to the
  // next window and hand the events no later window can hold to `expire`.
  void finish(bool delete_used, const ExpireFn& expire) {
    shape_->finish(*this, delete_used, expire);
  }
  std::size_t live() const { return live_; }
  // Case cancellation (CWP4): removes the queued events `belongs` picks, as if deleted as used
  // (they do not expire; their arrival positions stay taken), and drops a ready window so that
  // the next evaluate() selects again. Returns how many were removed.
  std::size_t remove_case(const std::function<bool(const Event&)>& belongs);

  // ---- checkpoints (window_group_snapshot.cpp) ----
  // Writes what the group holds between firings: the queue (events, arrival numbers, wave
  // ordinals, gone marks), the cursor, the late bound, the wave records and a ready window. The
  // parts are the port's, rebuilt from its spec, and keep nothing per group.
  void snapshot(SnapshotWriter& out) const;
  // Reads it into a group made for the same spec to which nothing was added yet. Throws
  // SnapshotError when the bytes are damaged or describe a state the group cannot be in.
  void restore(SnapshotReader& in);
  bool has_ready_window() const { return ready_; }

  // The queue, as the window's parts read it. Entries are in arrival order and leave from the
  // front only, so the arrival numbers of the queue are ascending and, while no entry is gone,
  // consecutive. Index i of the queue is storage index head_ + i.
  std::size_t queued() const { return events_.size() - head_; }
  const Event& event(std::size_t i) const { return events_[head_ + i]; }
  std::uint64_t seq(std::size_t i) const { return seqs_[head_ + i]; }
  std::uint64_t port_arrival(std::size_t i) const { return entries_[head_ + i].port_arrival; }
  std::uint64_t wave(std::size_t i) const { return entries_[head_ + i].wave; }
  bool gone(std::size_t i) const { return entries_[head_ + i].gone; }
  std::size_t gone_queued() const { return gone_queued_; }  // gone entries still in the queue
  std::uint64_t arrived() const { return arrived_; }        // events the group ever received
  // The arrival number of the first event still in the queue, not gone, that arrived at `seq` or
  // later; arrived() when there is none (the next event to arrive).
  std::uint64_t first_live_seq_from(std::uint64_t seq) const;
  std::uint64_t waves_seen() const { return waves_ ? waves_->base + waves_->records.size() : 0; }
  // Whether the group's waves with ordinals [from, to) have all been seen and are complete.
  bool waves_complete(std::uint64_t from, std::uint64_t to) const;
  // Whether entry i is at or past the lower bound of `place`, and before its next bound.
  // An open bound is not looked up (it is the same for every entry of a loop).
  bool at_or_past(const WindowPlace& place, std::size_t i) const {
    return (place.seq_from == 0 || seq(i) >= place.seq_from) &&
           (place.wave_from == 0 || wave(i) >= place.wave_from) &&
           (place.time_from == std::numeric_limits<Timestamp>::min() ||
            event(i).time >= place.time_from);
  }
  bool before_next(const WindowPlace& place, std::size_t i) const {
    return (place.seq_to == std::numeric_limits<std::uint64_t>::max() || seq(i) < place.seq_to) &&
           (place.wave_to == std::numeric_limits<std::uint64_t>::max() ||
            wave(i) < place.wave_to) &&
           (place.time_to == kNoDeadline || event(i).time < place.time_to);
  }

 private:
  // ---- forming windows with the port's step and size (window_group_forming.hpp) ----
  template <class Step, class Size>
  friend class WindowShapeOf;
  template <class Step, class Size>
  bool evaluate_as(const Step& step, const Size& size, const WindowProgress& p, Timestamp* deadline,
                   const ExpireFn& expire);
  template <class Step, class Size>
  void finish_as(const Step& step, const Size& size, bool delete_used, const ExpireFn& expire);
  // Selects the window's entries into `sel_`; false when it cannot be ready yet.
  template <class Step, class Size>
  bool select_as(const Step& step, const Size& size, const WindowProgress& p, Timestamp* deadline);
  // Windows that end at a stepping event and look back from it.
  template <class Step, class Size>
  bool select_backwards_as(const Step& step, const Size& size);
  template <class Step, class Size>
  void next_window_as(const Step& step, const Size& size, const ExpireFn& expire);
  // Windows that look back: the queued events no window from the cursor's on can hold leave.
  template <class Step, class Size>
  void leave_back_as(const Step& step, const Size& size, const ExpireFn& expire);
  // Token steps: expires queued events below the current window's lower bound (they arrived
  // after the windows that could hold them were finished).
  template <class Step>
  void expire_below_arrival_bound_as(const Step& step, const ExpireFn& expire);

  Event& stored(std::size_t i) { return events_[head_ + i]; }  // to move out of the queue
  // Drops the records of complete waves with no queued event from the front (none are kept
  // unless the windows count waves).
  void prune_waves() {
    if (waves_ && !waves_->records.empty()) prune_complete_waves();
  }
  void prune_complete_waves();
  void materialize();
  void remove(std::size_t i, const ExpireFn* expire);
  // The ready window is done with: the group's selection is cleared for the next one.
  void clear_window() {
    view_ = false;
    sel_.clear();
    window_.clear();
    window_seqs_.clear();
  }
  void pop_front();
  // Expires the queue's front entries below the arrival bound `seq_from` and drops them from the
  // queue (rare: out of line).
  void expire_late_arrivals(std::uint64_t seq_from, const ExpireFn& expire);
  // Expires the queue's front entries with an arrival number below `seq_from`.
  void expire_front_below(std::uint64_t seq_from, const ExpireFn& expire) {
    // Arrival numbers ascend through the queue: only its front can fall below the bound.
    for (std::size_t i = 0; i < queued() && seq(i) < seq_from; ++i)
      remove(i, &expire);
  }

  void take_parts(const WindowParts& parts) {
    step_ = parts.step.get();
    shape_ = parts.shape.get();
    uses_waves_ = spec_.uses_waves();
    looks_back_ = step_->looks_back();
    bounded_ = parts.size->bounded();
    // Only a bounded window that starts at its lower bound can have events below it.
    bounds_by_arrival_ = step_->bounds_by_arrival() && bounded_ && !looks_back_;
    show_empty_ = spec_.closes_by_time() && !spec_.suppress_empty && !ending_;
  }

  const WindowSpec& spec_;
  const WindowStep* step_ = nullptr;    // the port's (WindowParts), shared by its groups
  const WindowShape* shape_ = nullptr;  // the two together: what forms the windows
  // The step or the size counts waves (spec_.uses_waves(), asked per event: kept, it saves about
  // 15 instructions an event on the window benchmarks).
  bool uses_waves_ = false;
  bool looks_back_ = false;
  bool bounded_ = false;  // events leave when later windows start past them
  // The step's lower bounds are arrival numbers only, the size is bounded and windows start at
  // their lower bound: an event can arrive below the next window's bound.
  bool bounds_by_arrival_ = false;
  bool show_empty_ = false;  // empty windows are handed out (time windows, unless suppressed)
  bool ending_ = false;      // hide_empty_windows: the group ends
  std::size_t* live_total_;
  std::vector<Event> events_;
  std::vector<std::uint64_t> seqs_;  // arrival position in the group
  // The rest of what the queue keeps per entry, in one vector (events and arrival numbers stay
  // apart: windows are views of them): one allocation per group fewer than a vector each, for
  // ports with hundreds of thousands of groups.
  struct Entry {
    std::uint64_t port_arrival;  // arrival position at the port
    std::uint64_t wave;          // ordinal of the root wave in the group
    bool gone;                   // deleted as used, or expired
  };
  std::vector<Entry> entries_;
  std::size_t head_ = 0;
  std::size_t gone_queued_ = 0;  // gone entries still in the queue (from head_ on)
  std::size_t live_ = 0;
  std::uint64_t arrived_ = 0;
  WindowCursor cursor_;
  Timestamp late_before_ = std::numeric_limits<Timestamp>::min();
  std::vector<std::size_t> leaving_;  // reused: queue positions to expire, newest first
  // Waves by ordinal (order of first arrival in the group), from WaveRecords::base on; the
  // records before it were complete and no longer queued.
  struct WaveRecord {
    WaveTag root;
    std::size_t live = 0;  // queued events of the wave
    bool complete = false;
  };
  // Only windows in wave units keep them: allocated for those alone, so that a port with
  // hundreds of thousands of groups does not pay a deque block per group (docs/performance.md,
  // "Groups that come and go").
  struct WaveRecords {
    std::unordered_map<WaveRoot, std::uint64_t, WaveRoot::Hash> ordinal;
    std::deque<WaveRecord> records;
    std::uint64_t base = 0;
  };
  WaveRecord& record(std::uint64_t ordinal) { return waves_->records[ordinal - waves_->base]; }
  std::unique_ptr<WaveRecords> waves_;
  WaveLeftFn wave_left_;

  bool ready_ = false;
  WindowSelection sel_;
  bool view_ = false;  // the ready window is the range [sel_.begin, sel_.end) of the storage
  std::vector<Event> window_;
  std::vector<std::uint64_t> window_seqs_;
  bool window_contiguous_ = true;
};

}  // namespace cwf
