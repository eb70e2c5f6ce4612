// One queue of a window operator (one per group-by key) and the window semantics applied to it.
//
// Windows are numbered k = 0, 1, 2, ... The *step* places window k's lower bound (the first
// events it may hold) and decides when it can close; the *size* decides what it holds from
// there:
//
//   step  N tokens : events from the (k*N)-th arrival on
//   step  D (time) : events with timestamp >= L = base + k*D (base: the group's first event's
//                    timestamp rounded down to a multiple of D); the window closes by time at
//                    L + D at the latest (L + size for a time size)
//   step  N waves  : events of the (k*N)-th wave (in order of first arrival) and later
//   no step        : window k is evaluated when the k-th event arrives, and looks backwards
//
//   size  N tokens : the first N of those events (no step: the last N up to the k-th event)
//   size  D (time) : those with timestamp in [t0, t0 + D), t0 = L for a time step, else the
//                    timestamp of the first event at the lower bound (no step: (t_k - D, t_k])
//   size  N waves  : the events of N consecutive waves starting with the lower bound's wave
//                    (no step: the waves of the last N up to the k-th event's)
//   no size        : everything still queued up to the step's next bound (unbounded)
//
// A window is ready when it is complete (N tokens present, time closed past its end, its waves
// complete), or at the end of input as soon as its lower bound was reached. Events that no
// later window can hold leave the queue as expired unless they were deleted as used.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "runtime/event.hpp"
#include "runtime/receiver.hpp"
#include "runtime/window_spec.hpp"

namespace cwf {

// How far the port has got, shared by all its groups.
struct WindowProgress {
  // Time-closed windows ending at or before this are closed: the latest event timestamp, or the
  // formation timeout's reach (clock - timeout), or "all" at the end of input.
  Timestamp closed_through = 0;
  Timestamp max_time = 0;  // the latest event timestamp seen on the port
  bool end_of_input = false;
};

class WindowGroup {
 public:
  using ExpireFn = std::function<void(Event&&)>;
  // Wave units: told the root of a wave whose last queued event in this group left the queue.
  using WaveLeftFn = std::function<void(const WaveTag&)>;

  WindowGroup(const WindowSpec& spec, std::size_t* live_total, WaveLeftFn wave_left = nullptr)
      : spec_(spec), live_total_(live_total), wave_left_(std::move(wave_left)) {}

  // Events with a timestamp before this fall into a window that already closed (late).
  Timestamp late_before() const;
  // Returns true (wave units) when the event is the only queued one of its wave in the group.
  bool add(Event&& event);
  // Wave units: the wave of `root` is complete at the port (see WindowedReceiver). Its windows
  // may now be ready; the group has to be evaluated again.
  void wave_complete(const WaveTag& root);
  // Waves the group still keeps a record of (those with queued events, and incomplete ones).
  std::size_t wave_records() const { return waves_.size(); }

  // Whether the next window is ready (then window_*() describe it until finish()). If not,
  // `deadline` receives the timestamp whose passing would close it (kNever: none).
  // Empty windows that are not shown (see WindowSpec::suppress_empty) are passed over, which
  // may expire events.
  bool evaluate(const WindowProgress& progress, Timestamp* deadline, const ExpireFn& expire);
  // A window whose events lie side by side in the queue is a view of the queue's storage (valid
  // until finish(); the storage may move when events are added, so ask again after add()).
  std::span<const Event> window_events() const {
    if (!view_) return window_;
    return {events_.data() + head_ + sel_begin_, sel_end_ - sel_begin_};
  }
  Timestamp window_time() const { return window_time_; }
  // The ready window's interval when it is cut by time (see WindowInterval), else none.
  const std::optional<WindowInterval>& window_interval() const { return window_interval_; }
  const WaveTag* window_wave() const {
    std::span<const Event> events = window_events();
    return events.empty() ? nullptr : &events.back().wave;
  }
  // Arrival numbers of the window's events in the group, and whether the window holds every
  // queued event between its first and last (see Window).
  std::span<const std::uint64_t> window_seqs() const {
    if (!view_) return window_seqs_;
    return {seqs_.data() + head_ + sel_begin_, sel_end_ - sel_begin_};
  }
  std::uint64_t window_first_seq() const {
    std::span<const std::uint64_t> seqs = window_seqs();
    return seqs.empty() ? arrived_ : seqs.front();
  }
  bool window_contiguous() const { return view_ || window_contiguous_; }

  // The actor is done with the ready window: delete its events when `delete_used`, move to the
  // next window and hand the events no later window can hold to `expire`.
  void finish(bool delete_used, const ExpireFn& expire);
  std::size_t live() const { return live_; }
  // Case cancellation (CWP4): removes the queued events `belongs` picks, as if deleted as used
  // (they do not expire; their arrival positions stay taken), and drops a ready window so that
  // the next evaluate() selects again. Returns how many were removed.
  std::size_t remove_case(const std::function<bool(const Event&)>& belongs);

 private:
  // The queue, in arrival order, is kept as parallel arrays from head_ on (index i of the queue
  // is storage index head_ + i). Entries leave from the front only, so the arrival numbers of
  // the queue are ascending and, while no entry is gone, consecutive.
  std::size_t size() const { return events_.size() - head_; }
  Event& event(std::size_t i) { return events_[head_ + i]; }
  const Event& event(std::size_t i) const { return events_[head_ + i]; }
  std::uint64_t seq(std::size_t i) const { return seqs_[head_ + i]; }
  std::uint64_t wave(std::size_t i) const { return ordinals_[head_ + i]; }
  bool gone(std::size_t i) const { return gone_[head_ + i] != 0; }
  std::size_t selected_count() const { return range_ ? sel_end_ - sel_begin_ : selected_.size(); }
  std::size_t last_selected() const { return range_ ? sel_end_ - 1 : selected_.back(); }
  bool step_is(WindowUnit u) const { return spec_.step && spec_.step->unit == u; }
  bool size_is(WindowUnit u) const { return spec_.size && spec_.size->unit == u; }
  std::int64_t x() const { return spec_.step->amount; }
  std::int64_t y() const { return spec_.size->amount; }
  Timestamp lower_time(std::uint64_t k) const { return base_ + static_cast<Timestamp>(k) * x(); }
  bool waves_complete(std::uint64_t from, std::uint64_t to) const;
  std::uint64_t waves_seen() const { return wave_base_ + waves_.size(); }
  // Drops the records of complete waves with no queued event from the front.
  void prune_waves();
  // Selects the window's entries into `selected_`; false when it cannot be ready yet.
  bool select(const WindowProgress& p, Timestamp* deadline, bool* time_closed);
  // Windows that end at a stepping event and look back from it: no step (every event steps), and
  // a token step with a time size ("the last y seconds, every x tokens", the dissertation's
  // combination 5).
  bool looks_back() const {
    return !spec_.step || (step_is(WindowUnit::tokens) && size_is(WindowUnit::time));
  }
  // The arrival number of the event window k_ ends at, when it looks back: the first token of
  // each step (with no step, every token).
  std::uint64_t stepping_seq() const { return spec_.step ? k_ * std::uint64_t(x()) : k_; }
  bool select_backwards(const WindowProgress& p);
  void materialize();
  void remove(std::size_t i, const ExpireFn* expire);
  void next_window(const ExpireFn& expire);
  void pop_front();
  // For a time step: the first window (from k_) that can hold an event at `t`.
  std::uint64_t first_window_holding(Timestamp t) const;

  const WindowSpec& spec_;
  std::size_t* live_total_;
  std::vector<Event> events_;
  std::vector<std::uint64_t> seqs_;      // arrival position in the group
  std::vector<std::uint64_t> ordinals_;  // ordinal of the root wave in the group
  std::vector<std::uint8_t> gone_;       // deleted as used, or expired
  std::size_t head_ = 0;
  std::size_t gone_queued_ = 0;  // gone entries still in the queue (from head_ on)
  std::size_t live_ = 0;
  std::uint64_t arrived_ = 0;
  std::uint64_t k_ = 0;
  bool started_ = false;  // base_ set (time step)
  bool parked_ = false;   // suppressed empty time windows: wait for an event to jump ahead
  Timestamp base_ = 0;
  Timestamp late_before_ = std::numeric_limits<Timestamp>::min();
  std::vector<std::size_t> leaving_;  // reused: queue positions to expire, newest first
  Timestamp trigger_time_ = 0;        // looking back: the newest stepping event's timestamp
  std::uint64_t trigger_wave_ = 0;
  // Waves by ordinal (order of first arrival in the group), from wave_base_ on; the records
  // before it were complete and no longer queued.
  struct WaveRecord {
    WaveTag root;
    std::size_t live = 0;  // queued events of the wave
    bool complete = false;
  };
  WaveRecord& record(std::uint64_t ordinal) { return waves_[ordinal - wave_base_]; }
  std::unordered_map<WaveRoot, std::uint64_t, WaveRoot::Hash> wave_ordinal_;
  std::deque<WaveRecord> waves_;
  std::uint64_t wave_base_ = 0;
  WaveLeftFn wave_left_;

  bool ready_ = false;
  Timestamp ready_end_ = 0;
  // The window's queue indexes: [sel_begin_, sel_end_) when range_, else selected_.
  std::vector<std::size_t> selected_;
  bool range_ = false;
  std::size_t sel_begin_ = 0;
  std::size_t sel_end_ = 0;
  bool view_ = false;  // the ready window is the range [sel_begin_, sel_end_) of the storage
  std::vector<Event> window_;
  std::vector<std::uint64_t> window_seqs_;
  bool window_contiguous_ = true;
  Timestamp window_time_ = 0;
  std::optional<WindowInterval> window_interval_;
};

}  // namespace cwf
