// Step D (a duration): windows lie on a grid of periods of length D whose origin is the group's
// first event's timestamp rounded down to a multiple of D. Window k's lower bound is
// L = base + k*D: it holds, by its size, events with a timestamp at or past L, and closes by time
// at L + D at the latest (L + size for a duration size). Events before L leave once the window
// is done; events that arrive with a timestamp before L are late.
//
// Empty windows that are not shown (suppress_empty) are jumped over: the group moves to the first
// window that can hold a queued event, or waits for the next event and moves to the first window
// that can hold it.
#pragma once

#include <cstdint>
#include <limits>

#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_size.hpp"
#include "runtime/windows/window_step.hpp"

namespace cwf {

class WindowStepTime final : public WindowStep {
 public:
  // `size`: how far a window reaches from its lower bound (a duration size's extent, else one
  // period), to find the first window that can hold a timestamp.
  WindowStepTime(Duration d, const WindowSize& size)
      : d_(d), reach_(size.time_extent().value_or(d)) {}

  bool looks_back() const override { return false; }
  bool watches_arrivals() const override { return true; }
  void arrived(WindowCursor& cursor, Timestamp t) const override;
  void next(WindowCursor& cursor) const override {
    ++cursor.k;
    update_floor(cursor);
  }

  bool place(const WindowGroup&, const WindowCursor& cursor, const WindowProgress& progress,
             WindowPlace& place) const override {
    if (!cursor.started || cursor.parked) return false;
    bounds(cursor, place);
    // At the end of input nothing can reach a window that starts past the latest event.
    return !(progress.end_of_input && place.time_from > progress.max_time);
  }
  void bounds(const WindowCursor& cursor, WindowPlace& place) const override {
    if (!cursor.started) return;  // no event yet: nothing below any bound
    Timestamp l = lower(cursor);
    place.time_from = l;
    place.time_to = l + d_;
  }
  bool next_bound_reached(const WindowGroup&, const WindowPlace& place,
                          const WindowProgress& progress) const override {
    return place.time_to <= progress.closed_through;
  }
  StepClosing closing(const WindowPlace& place, const WindowProgress& progress) const override {
    bool closed = place.time_to <= progress.closed_through;
    return {closed, closed, place.time_to};
  }
  Timestamp start_time(const WindowGroup&, const WindowPlace& place) const override {
    return place.time_from;
  }
  // The earliest wave among the events of the period [L, L + D).
  std::optional<std::uint64_t> first_wave(const WindowGroup& group,
                                          const WindowPlace& place) const override;
  bool skip_empty(const WindowGroup& group, WindowCursor& cursor) const override;
  Timestamp first_open_lower_bound(const WindowCursor& cursor, Timestamp latest) const override;
  // The grid restarts at the window being formed: base L, k = 0 (a group that saw no event yet
  // starts its grid from its first event, by the new period).
  void fold(WindowCursor& cursor) const override {
    if (!cursor.started) return;
    cursor.base = lower(cursor);
    cursor.k = 0;
  }

  // Window k's lower bound.
  Timestamp lower(const WindowCursor& cursor) const {
    return cursor.base + static_cast<Timestamp>(cursor.k) * d_;
  }
  // The first window from the cursor's on that can hold an event at `t`.
  std::uint64_t first_window_holding(const WindowCursor& cursor, Timestamp t) const;

 private:
  void update_floor(WindowCursor& cursor) const {
    cursor.floor =
        cursor.started && !cursor.parked ? lower(cursor) : std::numeric_limits<Timestamp>::min();
  }

  Duration d_;
  Duration reach_;
};

}  // namespace cwf
