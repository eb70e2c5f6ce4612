// Step N tokens: window k starts at the group's (origin + k*N)-th event (events are numbered 0, 1,
// 2, ... as they arrive in the group) and holds, by its size, events from there on; the events
// before it leave once no later window can hold them. With a size that reaches back from an end (a
// duration: "the last y seconds, every N tokens"), window k instead ends at the (k*N)-th event
// and looks back from it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_size.hpp"
#include "runtime/windows/window_step.hpp"

namespace cwf {

class WindowStepTokens final : public WindowStep {
 public:
  WindowStepTokens(std::int64_t n, const WindowSize& size)
      : n_(static_cast<std::uint64_t>(n)),
        looks_back_(size.reaches_back_from_end()),
        sized_(size.bounded()) {}

  bool looks_back() const override { return looks_back_; }
  bool bounds_by_arrival() const override { return true; }
  bool place(const WindowGroup& group, const WindowCursor& cursor, const WindowProgress& progress,
             WindowPlace& place) const override;
  void bounds(const WindowCursor& cursor, WindowPlace& place) const override {
    place.seq_from = cursor.origin + cursor.k * n_;
    place.seq_to = place.seq_from + n_;
  }
  bool next_bound_reached(const WindowGroup& group, const WindowPlace& place,
                          const WindowProgress&) const override {
    return group.arrived() >= place.seq_to;
  }
  StepClosing closing(const WindowPlace&, const WindowProgress& progress) const override {
    return {progress.end_of_input, false, kNoDeadline};
  }
  std::uint64_t stepping_seq(const WindowCursor& cursor) const override {
    return cursor.origin + cursor.k * n_;
  }
  void fold(WindowCursor& cursor) const override {
    cursor.origin += cursor.k * n_;
    cursor.k = 0;
  }
  bool skip_empty(const WindowGroup& group, WindowCursor& cursor) const override;

 private:
  std::uint64_t n_;
  bool looks_back_;
  bool sized_;
};

// Inline: called once per window from WindowShapeOf, where the step's type is known.
inline bool WindowStepTokens::place(const WindowGroup& group, const WindowCursor& cursor,
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

// Without a size, window k holds every queued event before window k + 1's lower bound, so an empty
// one is followed by empty ones up to the window where the first queued event falls (with none
// queued, the next to arrive): the cursor jumps there instead of passing each. A group whose
// events were all used can be that far behind its arrivals once its step changed (fold). With a
// size, a window holds events from its own lower bound on, and the next one is formed as usual.
// Looking back, a window whose stepping event was used up or expired is empty, and so is every one
// up to the window stepping at the next event still queued (with none, the next to arrive): the
// cursor jumps there, and what the windows passed over would each have let leave leaves with the
// jump (WindowGroup::evaluate_as).
inline bool WindowStepTokens::skip_empty(const WindowGroup& group, WindowCursor& cursor) const {
  if (looks_back_) {
    // At or after the stepping event, so never behind the cursor's window.
    const std::uint64_t next = group.first_live_seq_from(stepping_seq(cursor));
    cursor.k = (next - cursor.origin + n_ - 1) / n_;
    return true;
  }
  if (sized_) return true;
  std::uint64_t first = group.arrived();
  for (std::size_t i = 0; i < group.queued(); ++i)
    if (!group.gone(i)) {
      first = group.seq(i);
      break;
    }
  if (first > cursor.origin) cursor.k = std::max(cursor.k, (first - cursor.origin) / n_);
  return true;
}

}  // namespace cwf
