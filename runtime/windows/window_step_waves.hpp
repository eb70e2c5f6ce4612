// Step N waves: the waves of a group are numbered 0, 1, 2, ... in the order of their first event
// in the group; window k starts with the first queued event of wave origin + k*N or later and
// holds, by its size, events from there on. Events of earlier waves leave once no later window can
// hold them.
#pragma once

#include <cstdint>

#include "runtime/windows/window_step.hpp"

namespace cwf {

class WindowStepWaves final : public WindowStep {
 public:
  explicit WindowStepWaves(std::int64_t n) : n_(static_cast<std::uint64_t>(n)) {}

  bool looks_back() const override { return false; }
  bool place(const WindowGroup& group, const WindowCursor& cursor, const WindowProgress& progress,
             WindowPlace& place) const override;
  void bounds(const WindowCursor& cursor, WindowPlace& place) const override;
  bool next_bound_reached(const WindowGroup& group, const WindowPlace& place,
                          const WindowProgress& progress) const override;
  StepClosing closing(const WindowPlace& place, const WindowProgress& progress) const override;
  void fold(WindowCursor& cursor) const override {
    cursor.origin += cursor.k * n_;
    cursor.k = 0;
  }

 private:
  std::uint64_t n_;
};

}  // namespace cwf
