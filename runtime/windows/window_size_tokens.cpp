#include "runtime/windows/window_size_tokens.hpp"

#include <algorithm>

#include "runtime/windows/window_group.hpp"

namespace cwf {

bool WindowSizeTokens::select(const WindowGroup& group, const WindowStep& step,
                              const WindowPlace& place, const WindowProgress& progress,
                              WindowSelection& out, Timestamp* deadline) const {
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
  out.interval = place.period;
  out.time_closed = closing.by_time;
  out.closed_end = closing.end;
  // An empty window is one whose period closed: it is stamped with the period's end.
  out.time = out.count() > 0 ? group.event(out.last()).time : closing.by_time ? closing.end : 0;
  return true;
}

void WindowSizeTokens::select_back(const WindowGroup& group, std::size_t stepping,
                                   const WindowCursor&, WindowSelection& out) const {
  for (std::size_t i = stepping + 1; i-- > 0 && out.indexes.size() < n_;)
    if (!group.gone(i)) out.indexes.push_back(i);
  std::reverse(out.indexes.begin(), out.indexes.end());
}

void WindowSizeTokens::leaving_back(const WindowGroup& group, const WindowCursor&,
                                    std::uint64_t next_stepping,
                                    std::vector<std::size_t>& leaving) const {
  // The next window holds the stepping event and the N - 1 before it at most.
  std::size_t kept = 0;
  for (std::size_t i = group.queued(); i-- > 0;) {
    if (group.gone(i) || group.seq(i) >= next_stepping) continue;
    if (++kept >= n_) leaving.push_back(i);
  }
}

}  // namespace cwf
