#include "runtime/windows/window_step_tokens.hpp"

#include <algorithm>

#include "runtime/windows/window_group.hpp"

namespace cwf {

void WindowStepTokens::bounds(const WindowCursor& cursor, WindowPlace& place) const {
  place.seq_from = cursor.origin + cursor.k * n_;
  place.seq_to = place.seq_from + n_;
}

bool WindowStepTokens::place(const WindowGroup& group, const WindowCursor& cursor,
                             const WindowProgress&, WindowPlace& place) const {
  bounds(cursor, place);
  if (group.arrived() <= place.seq_from) return false;
  const std::size_t queued = group.queued();
  std::size_t first = 0;
  if (group.gone_queued() == 0) {
    // With no entry gone the queue holds consecutive arrival numbers from seq(0) on: the lower
    // bound is found by position, without a scan.
    if (queued > 0 && place.seq_from > group.seq(0))
      first =
          static_cast<std::size_t>(std::min<std::uint64_t>(place.seq_from - group.seq(0), queued));
  } else {
    while (first < queued && (group.gone(first) || group.seq(first) < place.seq_from))
      ++first;
  }
  place.dense = group.gone_queued() == 0;
  place.first = first;
  place.missing_first = first == queued;  // the events at the lower bound were all used
  return true;
}

bool WindowStepTokens::next_bound_reached(const WindowGroup& group, const WindowPlace& place,
                                          const WindowProgress&) const {
  return group.arrived() >= place.seq_to;
}

StepClosing WindowStepTokens::closing(const WindowPlace&, const WindowProgress& progress) const {
  return {progress.end_of_input, false, kNoDeadline};
}

}  // namespace cwf
