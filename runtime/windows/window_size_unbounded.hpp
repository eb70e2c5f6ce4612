// No size: window k holds everything still queued before its step's next bound (window k + 1's
// lower bound); it is complete once everything up to that bound has arrived (or its step closes
// it). Events leave only when used. Looking back (no step either): everything still queued up to
// the stepping event.
#pragma once

#include <cstdint>

#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_size.hpp"

namespace cwf {

class WindowSizeUnbounded final : public WindowSize {
 public:
  // Forward selection (see WindowSize).
  template <class Step>
  bool select(const WindowGroup& group, const Step& step, const WindowPlace& place,
              const WindowProgress& progress, WindowSelection& out, Timestamp* deadline) const;
  void select_back(const WindowGroup& group, std::size_t stepping, const WindowCursor& cursor,
                   WindowSelection& out) const override;
  void leaving_back(const WindowGroup&, const WindowCursor&, std::uint64_t,
                    std::vector<std::size_t>&) const override {}
  bool bounded() const override { return false; }
};

template <class Step>
bool WindowSizeUnbounded::select(const WindowGroup& group, const Step& step,
                                 const WindowPlace& place, const WindowProgress& progress,
                                 WindowSelection& out, Timestamp* deadline) const {
  StepClosing closing = step.closing(place, progress);
  if (!step.next_bound_reached(group, place, progress) && !closing.closed) {
    *deadline = closing.end;
    return false;
  }
  for (std::size_t i = 0; i < group.queued(); ++i)
    if (!group.gone(i) && group.before_next(place, i)) out.indexes.push_back(i);
  out.take_closing(place, closing);
  out.time = closing.by_time ? closing.end : out.count() > 0 ? group.event(out.last()).time : 0;
  return true;
}

}  // namespace cwf
