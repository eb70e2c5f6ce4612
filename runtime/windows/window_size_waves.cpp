#include "runtime/windows/window_size_waves.hpp"

#include "runtime/windows/window_group.hpp"

namespace cwf {

bool WindowSizeWaves::select(const WindowGroup& group, const WindowStep& step,
                             const WindowPlace& place, const WindowProgress& progress,
                             WindowSelection& out, Timestamp* deadline) const {
  if (place.missing_first) return false;
  StepClosing closing = step.closing(place, progress);
  std::optional<std::uint64_t> from = step.first_wave(group, place);
  if (!from) {
    // No event in the step's period: an empty window once the period closed.
    if (!closing.closed) {
      *deadline = closing.end;
      return false;
    }
  } else {
    const std::uint64_t to = *from + n_;
    if (!progress.end_of_input && !group.waves_complete(*from, to)) return false;
    for (std::size_t i = place.first; i < group.queued(); ++i)
      if (!group.gone(i) && group.at_or_past(place, i) && group.wave(i) >= *from &&
          group.wave(i) < to)
        out.indexes.push_back(i);
  }
  out.interval = place.period;
  out.time_closed = closing.by_time;
  out.closed_end = closing.end;
  out.time = out.count() > 0 ? group.event(out.last()).time : closing.by_time ? closing.end : 0;
  return true;
}

void WindowSizeWaves::select_back(const WindowGroup& group, std::size_t stepping,
                                  const WindowCursor& cursor, WindowSelection& out) const {
  const std::uint64_t last = cursor.trigger_wave;
  for (std::size_t i = 0; i <= stepping; ++i)
    if (!group.gone(i) && group.wave(i) <= last && group.wave(i) + n_ > last)
      out.indexes.push_back(i);
}

void WindowSizeWaves::leaving_back(const WindowGroup& group, const WindowCursor& cursor,
                                   std::uint64_t next_stepping,
                                   std::vector<std::size_t>& leaving) const {
  for (std::size_t i = group.queued(); i-- > 0;) {
    if (group.gone(i) || group.seq(i) >= next_stepping) continue;
    if (group.wave(i) + n_ <= cursor.trigger_wave) leaving.push_back(i);
  }
}

}  // namespace cwf
