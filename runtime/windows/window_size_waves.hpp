// Size N waves: window k holds the events at or past its step's lower bound of N consecutive waves
// starting with the lower bound's wave (see WindowStep::first_wave); it is complete when those
// waves are (or at the end of input). Looking back (no step): the events of the waves of the
// last N up to the stepping event's.
#pragma once

#include <cstdint>

#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_size.hpp"

namespace cwf {

class WindowSizeWaves final : public WindowSize {
 public:
  explicit WindowSizeWaves(std::int64_t n) : n_(static_cast<std::uint64_t>(n)) {}

  // Forward selection (see WindowSize).
  template <class Step>
  bool select(const WindowGroup& group, const Step& step, const WindowPlace& place,
              const WindowProgress& progress, WindowSelection& out, Timestamp* deadline) const;
  void select_back(const WindowGroup& group, std::size_t stepping, const WindowCursor& cursor,
                   WindowSelection& out) const override;
  void leaving_back(const WindowGroup& group, const WindowCursor& cursor,
                    std::uint64_t next_stepping, std::vector<std::size_t>& leaving) const override;

 private:
  std::uint64_t n_;
};

template <class Step>
bool WindowSizeWaves::select(const WindowGroup& group, const Step& step, const WindowPlace& place,
                             const WindowProgress& progress, WindowSelection& out,
                             Timestamp* deadline) const {
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
  out.take_closing(place, closing);
  out.time = out.count() > 0 ? group.event(out.last()).time : closing.by_time ? closing.end : 0;
  return true;
}

}  // namespace cwf
