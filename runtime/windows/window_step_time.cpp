#include "runtime/windows/window_step_time.hpp"

#include <algorithm>
#include <limits>

#include "runtime/windows/window_group.hpp"

namespace cwf {

namespace {

Timestamp floor_div(Timestamp a, Timestamp b) {
  Timestamp q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

}  // namespace

void WindowStepTime::arrived(WindowCursor& cursor, Timestamp t) const {
  if (!cursor.started) {
    cursor.base = floor_div(t, d_) * d_;
    cursor.started = true;
  } else if (cursor.parked) {
    cursor.k = first_window_holding(cursor, t);
    cursor.parked = false;
  }
  cursor.awaits_event = false;  // until the group parks again
  update_floor(cursor);
}

std::uint64_t WindowStepTime::first_window_holding(const WindowCursor& cursor, Timestamp t) const {
  // Window k holds t when L_k <= t < L_k + reach: the first k with L_k + reach > t.
  Timestamp k = floor_div(t - reach_ - cursor.base, d_) + 1;
  return std::max<std::uint64_t>(cursor.k, k < 0 ? 0 : static_cast<std::uint64_t>(k));
}

Timestamp WindowStepTime::first_open_lower_bound(const WindowCursor& cursor,
                                                 Timestamp latest) const {
  if (!cursor.started) return std::numeric_limits<Timestamp>::min();
  // Window k holds [L_k, L_k + reach) and is closed once `latest` reaches its end: the first one
  // still open is the smallest k with L_k + reach > latest.
  if (latest - reach_ < cursor.base) return cursor.base;
  return cursor.base + (floor_div(latest - reach_ - cursor.base, d_) + 1) * d_;
}

std::optional<std::uint64_t> WindowStepTime::first_wave(const WindowGroup& group,
                                                        const WindowPlace& place) const {
  std::optional<std::uint64_t> first;
  for (std::size_t i = 0; i < group.queued(); ++i) {
    Timestamp t = group.event(i).time;
    if (!group.gone(i) && t >= place.time_from && t < place.time_to &&
        (!first || group.wave(i) < *first))
      first = group.wave(i);
  }
  return first;
}

bool WindowStepTime::skip_empty(const WindowGroup& group, WindowCursor& cursor) const {
  Timestamp earliest = kNoDeadline;
  for (std::size_t i = 0; i < group.queued(); ++i)
    if (!group.gone(i)) earliest = std::min(earliest, group.event(i).time);
  if (earliest == kNoDeadline) {
    cursor.parked = true;
    cursor.awaits_event = true;
  } else {
    cursor.k = first_window_holding(cursor, earliest);
  }
  update_floor(cursor);
  return !cursor.parked;
}

}  // namespace cwf
