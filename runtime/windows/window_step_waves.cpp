#include "runtime/windows/window_step_waves.hpp"

#include "runtime/windows/window_group.hpp"

namespace cwf {

void WindowStepWaves::bounds(const WindowCursor& cursor, WindowPlace& place) const {
  place.wave_from = cursor.origin + cursor.k * n_;
  place.wave_to = place.wave_from + n_;
}

bool WindowStepWaves::place(const WindowGroup& group, const WindowCursor& cursor,
                            const WindowProgress&, WindowPlace& place) const {
  bounds(cursor, place);
  if (group.waves_seen() <= place.wave_from) return false;
  const std::size_t queued = group.queued();
  std::size_t first = 0;
  while (first < queued && (group.gone(first) || group.wave(first) < place.wave_from))
    ++first;
  place.first = first;
  place.missing_first = first == queued;  // the events at the lower bound were all used
  return true;
}

bool WindowStepWaves::next_bound_reached(const WindowGroup& group, const WindowPlace& place,
                                         const WindowProgress&) const {
  return group.waves_complete(place.wave_from, place.wave_to);
}

StepClosing WindowStepWaves::closing(const WindowPlace&, const WindowProgress& progress) const {
  return {progress.end_of_input, false, kNoDeadline};
}

}  // namespace cwf
