#include "runtime/windows/window_size_unbounded.hpp"

#include "runtime/windows/window_group.hpp"

namespace cwf {

bool WindowSizeUnbounded::select(const WindowGroup& group, const WindowStep& step,
                                 const WindowPlace& place, const WindowProgress& progress,
                                 WindowSelection& out, Timestamp* deadline) const {
  StepClosing closing = step.closing(place, progress);
  if (!step.next_bound_reached(group, place, progress) && !closing.closed) {
    *deadline = closing.end;
    return false;
  }
  for (std::size_t i = 0; i < group.queued(); ++i)
    if (!group.gone(i) && group.before_next(place, i)) out.indexes.push_back(i);
  out.interval = place.period;
  out.time_closed = closing.by_time;
  out.closed_end = closing.end;
  out.time = closing.by_time ? closing.end : out.count() > 0 ? group.event(out.last()).time : 0;
  return true;
}

void WindowSizeUnbounded::select_back(const WindowGroup& group, std::size_t stepping,
                                      const WindowCursor&, WindowSelection& out) const {
  for (std::size_t i = 0; i <= stepping; ++i)
    if (!group.gone(i)) out.indexes.push_back(i);
}

}  // namespace cwf
