// The step of a window operator (WindowSpec::step): where window k of a group starts, when it can
// no longer change, and which queued events later windows can no longer hold. One implementation
// per kind of step, each in its own file:
//
//   WindowStepTokens     (window_step_tokens.hpp)      step N tokens
//   WindowStepTime       (window_step_time.hpp)        step D (a duration)
//   WindowStepWaves      (window_step_waves.hpp)       step N waves
//   WindowStepEveryEvent (window_step_every_event.hpp) no step: every new event
//
// What window k holds from where the step puts it is the size's decision (WindowSize); the
// group's queue, deletion of used events, expiry, the formation timeout and suppress_empty are
// WindowGroup's, the same for every step and size. The parts are built once per port
// (make_window_parts) and called once per window, never per queued event: what the step says
// about the events of window k it says as a WindowPlace, a box the group and the size test
// events against inline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "runtime/actor/window.hpp"
#include "runtime/time/clock.hpp"

namespace cwf {

class WindowGroup;
class WindowSize;
constexpr Timestamp kNoDeadline = std::numeric_limits<Timestamp>::max();

// How far the port has got, shared by all its groups.
struct WindowProgress {
  // Time-closed windows ending at or before this are closed: the latest event timestamp, or the
  // formation timeout's reach (clock - timeout), or "all" at the end of input.
  Timestamp closed_through = 0;
  Timestamp max_time = 0;  // the latest event timestamp seen on the port
  bool end_of_input = false;
};

// Where a group has got: the window it forms next and what its step keeps per group.
struct WindowCursor {
  std::uint64_t k = 0;  // the window being formed
  // Token and wave steps: the arrival number (wave ordinal) window 0 is counted from. 0 until the
  // port's step or size changes while it runs (WindowStep::fold).
  std::uint64_t origin = 0;
  // Events with a timestamp before this can only fall into windows that have passed (the step's
  // part of WindowGroup::late_before): a time step's current lower bound.
  Timestamp floor = std::numeric_limits<Timestamp>::min();
  // Time step: the grid's origin, set by the group's first event (base), and whether the group
  // waits for an event to jump over empty windows it does not show (parked).
  bool started = false;
  bool parked = false;
  // The step wants to be told of the group's next event (WindowStep::arrived): set when the group
  // is made for steps that watch arrivals, then as the step says.
  bool awaits_event = false;
  Timestamp base = 0;
  // Windows that look back: the stepping event of the last window formed.
  Timestamp trigger_time = 0;
  std::uint64_t trigger_wave = 0;
};

// Window k as its step places it, for windows that start at their lower bound: a box in (arrival
// number, wave ordinal, timestamp). An event is at or past the lower bound when it lies at or above
// every `*_from`, and before window k + 1's lower bound when it lies below every `*_to`. Bounds a
// step does not set are open.
struct WindowPlace {
  std::uint64_t seq_from = 0;
  std::uint64_t wave_from = 0;
  Timestamp time_from = std::numeric_limits<Timestamp>::min();
  std::uint64_t seq_to = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t wave_to = std::numeric_limits<std::uint64_t>::max();
  // A time step's period end: the window closes by time there, so no event at or past it can
  // join it.
  Timestamp time_to = kNoDeadline;
  // The queue index from which the window's events are looked for. For steps whose windows start
  // at an event (tokens, waves) it is that event's, and `missing_first` says it was used up.
  std::size_t first = 0;
  bool missing_first = false;
  // Every queued event from `first` on is at or past the lower bound and none is gone: windows
  // counted in tokens are a range of the queue, found without a scan.
  bool dense = false;
  // Only the arrival bound is set: the queue is in arrival order, so the events before the lower
  // bound are a prefix of the queue.
  bool by_arrival_only() const {
    return wave_from == 0 && time_from == std::numeric_limits<Timestamp>::min();
  }
  // A time step's period [time_from, time_to), reported as the window's interval unless the size
  // cuts it by time itself; none for other steps.
  std::optional<WindowInterval> period() const {
    if (time_to == kNoDeadline) return std::nullopt;
    return WindowInterval{time_from, time_to};
  }
};

// Whether window k can still receive events.
struct StepClosing {
  bool closed = false;          // no: by time (the period closed), or at the end of input
  bool by_time = false;         // closed because time passed `end`
  Timestamp end = kNoDeadline;  // when it closes by time (kNoDeadline: it does not)
};

class WindowStep {
 public:
  virtual ~WindowStep() = default;

  // Whether windows end at a stepping event and look back from it (no step; a token step with a
  // size that reaches back from an end, see WindowSize::reaches_back_from_end). Asked once, when
  // the parts are built.
  virtual bool looks_back() const = 0;
  // Whether its windows' lower bounds are arrival numbers only (a token step), so that an event
  // can arrive below the next window's bound. Asked once, when the parts are built.
  virtual bool bounds_by_arrival() const { return false; }
  // Whether arrived() is to be told of the group's events while the cursor awaits one.
  virtual bool watches_arrivals() const { return false; }
  virtual void arrived(WindowCursor&, Timestamp) const {}
  // Moves the cursor to the next window.
  virtual void next(WindowCursor& cursor) const { ++cursor.k; }

  // Windows that start at their lower bound: whether window k's lower bound has been reached,
  // and where it is (false: the window cannot be formed yet). `place` comes with every bound
  // open; a step sets the bounds it has and leaves the others open.
  virtual bool place(const WindowGroup& group, const WindowCursor& cursor,
                     const WindowProgress& progress, WindowPlace& place) const = 0;
  // The lower bound of window k alone (for expiry: events below window k's lower bound leave).
  virtual void bounds(const WindowCursor& cursor, WindowPlace& place) const = 0;
  // Whether everything before window k + 1's lower bound has arrived (a window holding all
  // events up to there is complete).
  virtual bool next_bound_reached(const WindowGroup& group, const WindowPlace& place,
                                  const WindowProgress& progress) const = 0;
  virtual StepClosing closing(const WindowPlace& place, const WindowProgress& progress) const = 0;
  // The timestamp a window cut by a duration starts at: the first event's at the lower bound.
  virtual Timestamp start_time(const WindowGroup& group, const WindowPlace& place) const;
  // The wave a window counted in waves starts with: the wave of the event at the lower bound.
  virtual std::optional<std::uint64_t> first_wave(const WindowGroup& group,
                                                  const WindowPlace& place) const;
  // An empty window was passed over (not shown): moves the cursor ahead to the first window that
  // can hold a queued event. False: none can, the group waits for an event.
  virtual bool skip_empty(const WindowGroup&, WindowCursor&) const { return true; }

  // The lower bound of the first window that event time `latest` has not closed, for a step
  // whose windows close by time: an event before it is late for every window an earlier event
  // closed, whether or not the group has formed those windows yet (how arrivals are grouped into
  // firings differs between directors; the order of arrival does not). Other steps: no bound.
  virtual Timestamp first_open_lower_bound(const WindowCursor&, Timestamp /*latest*/) const {
    return std::numeric_limits<Timestamp>::min();
  }

  // Windows that look back: the arrival number of the event the cursor's window ends at.
  virtual std::uint64_t stepping_seq(const WindowCursor&) const { return 0; }

  // The port's step or size changes (WindowedReceiver::reshape): makes the window being formed
  // window 0, where this step placed it (its lower bound; for windows that look back, its
  // stepping event), so that the new step counts on from there. Steps that number their windows
  // by arrival (no step) keep the cursor as it is.
  virtual void fold(WindowCursor&) const {}
};

}  // namespace cwf
