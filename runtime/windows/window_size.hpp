// The size of a window operator (WindowSpec::size): which queued events window k holds, from where
// its step puts it, and when it is complete. One implementation per kind of size, each in its own
// file:
//
//   WindowSizeTokens    (window_size_tokens.hpp)    size N tokens
//   WindowSizeTime      (window_size_time.hpp)      size D (a duration)
//   WindowSizeWaves     (window_size_waves.hpp)     size N waves
//   WindowSizeUnbounded (window_size_unbounded.hpp) no size: everything still queued
//
// A size works with any step (WindowStep): forward from the step's WindowPlace, or, for windows
// that look back, back from the stepping event. It writes what it chose into the group's
// WindowSelection, which is reused from window to window.
//
// Forward selection is not a virtual function: each size has a `select` template taking its step
// by type, which WindowShapeOf calls for the port's pair of parts, so that the step's and the
// size's code inline into the group's window forming (once per window, the hot path of every
// windowed port):
//
//   template <class Step>
//   bool select(const WindowGroup& group, const Step& step, const WindowPlace& place,
//               const WindowProgress& progress, WindowSelection& out, Timestamp* deadline) const;
//
// selects window k from `place` (which the step found reached). False when it is not ready yet;
// then `deadline` receives the timestamp whose passing would close it, if any.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/actor/window.hpp"
#include "runtime/time/clock.hpp"
#include "runtime/windows/window_step.hpp"

namespace cwf {

// The queue entries of the window being formed and how it is reported.
struct WindowSelection {
  // The window's queue indexes: [begin, end) when `range`, else `indexes` (ascending).
  std::vector<std::size_t> indexes;
  bool range = false;
  std::size_t begin = 0;
  std::size_t end = 0;
  Timestamp time = 0;  // the window's time (see WindowedReceiver)
  std::optional<WindowInterval> interval;
  // The window closed by time at `closed_end`: events before it are late from now on.
  bool time_closed = false;
  Timestamp closed_end = 0;

  void clear() {
    indexes.clear();
    range = false;
    interval.reset();
    time_closed = false;
  }
  // The window is cut by the step: its interval is the step's period (if any), and it closed by
  // time where the step says.
  void take_closing(const WindowPlace& place, const StepClosing& closing) {
    interval = place.period();
    time_closed = closing.by_time;
    closed_end = closing.end;
  }
  std::size_t count() const { return range ? end - begin : indexes.size(); }
  std::size_t last() const { return range ? end - 1 : indexes.back(); }
};

class WindowSize {
 public:
  virtual ~WindowSize() = default;

  // Looking back: selects the window ending at the stepping event at queue index `stepping`.
  virtual void select_back(const WindowGroup& group, std::size_t stepping,
                           const WindowCursor& cursor, WindowSelection& out) const = 0;
  // Looking back, after a window: the events before the next stepping one (arrival numbers below
  // `next_stepping`) that no later window can hold, appended to `leaving` newest first.
  virtual void leaving_back(const WindowGroup& group, const WindowCursor& cursor,
                            std::uint64_t next_stepping,
                            std::vector<std::size_t>& leaving) const = 0;
  // Whether events leave when later windows start past them (no: only when used).
  virtual bool bounded() const { return true; }
  // Whether, with a step counted in tokens, windows end at the stepping token and reach back from
  // it ("the last y seconds, every x tokens").
  virtual bool reaches_back_from_end() const { return false; }
  // How far in time a window reaches from its start, when the size is a duration.
  virtual std::optional<Duration> time_extent() const { return std::nullopt; }
};

}  // namespace cwf
