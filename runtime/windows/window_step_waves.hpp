// Step N waves: the waves of a group are numbered 0, 1, 2, ... in the order of their first event
// in the group; window k starts with the first queued event of wave origin + k*N or later and
// holds, by its size, events from there on. Events of earlier waves leave once no later window can
// hold them.
#pragma once

#include <cstdint>

#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_step.hpp"

namespace cwf {

class WindowStepWaves final : public WindowStep {
 public:
  explicit WindowStepWaves(std::int64_t n) : n_(static_cast<std::uint64_t>(n)) {}

  bool looks_back() const override { return false; }
  bool place(const WindowGroup& group, const WindowCursor& cursor, const WindowProgress&,
             WindowPlace& place) const override {
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
  void bounds(const WindowCursor& cursor, WindowPlace& place) const override {
    place.wave_from = cursor.origin + cursor.k * n_;
    place.wave_to = place.wave_from + n_;
  }
  bool next_bound_reached(const WindowGroup& group, const WindowPlace& place,
                          const WindowProgress&) const override {
    return group.waves_complete(place.wave_from, place.wave_to);
  }
  StepClosing closing(const WindowPlace&, const WindowProgress& progress) const override {
    return {progress.end_of_input, false, kNoDeadline};
  }
  void fold(WindowCursor& cursor) const override {
    cursor.origin += cursor.k * n_;
    cursor.k = 0;
  }

 private:
  std::uint64_t n_;
};

}  // namespace cwf
