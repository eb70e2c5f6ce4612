// Size N tokens: window k holds the first N events at or past its step's lower bound (with a time
// step, of those before the period's end); it is complete with N events, or when its step closes
// it (a time step's period ends; the end of input). Looking back (no step): the last N events up
// to the stepping one.
#pragma once

#include <algorithm>
#include <cstdint>

#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_size.hpp"

namespace cwf {

class WindowSizeTokens final : public WindowSize {
 public:
  explicit WindowSizeTokens(std::int64_t n) : n_(static_cast<std::size_t>(n)) {}

  // Forward selection (see WindowSize).
  template <class Step>
  bool select(const WindowGroup& group, const Step& step, const WindowPlace& place,
              const WindowProgress& progress, WindowSelection& out, Timestamp* deadline) const;
  void select_back(const WindowGroup& group, std::size_t stepping, const WindowCursor& cursor,
                   WindowSelection& out) const override;
  void leaving_back(const WindowGroup& group, const WindowCursor& cursor,
                    std::uint64_t next_stepping, std::vector<std::size_t>& leaving) const override;

 private:
  std::size_t n_;
};

template <class Step>
bool WindowSizeTokens::select(const WindowGroup& group, const Step& step, const WindowPlace& place,
                              const WindowProgress& progress, WindowSelection& out,
                              Timestamp* deadline) const {
  if (place.missing_first) return false;
  const std::size_t queued = group.queued();
  if (place.dense) {
    out.range = true;
    out.begin = place.first;
    out.end = place.first + std::min(n_, queued - place.first);
  } else {
    for (std::size_t i = place.first; i < queued && out.indexes.size() < n_; ++i)
      if (!group.gone(i) && group.at_or_past(place, i) && group.event(i).time < place.time_to)
        out.indexes.push_back(i);
  }
  StepClosing closing = step.closing(place, progress);
  if (out.count() < n_ && !closing.closed) {
    *deadline = closing.end;
    return false;
  }
  out.take_closing(place, closing);
  // An empty window is one whose period closed: it is stamped with the period's end.
  out.time = out.count() > 0 ? group.event(out.last()).time : closing.by_time ? closing.end : 0;
  return true;
}

}  // namespace cwf
