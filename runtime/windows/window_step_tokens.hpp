// Step N tokens: window k starts at the group's (origin + k*N)-th event (events are numbered 0, 1,
// 2, ... as they arrive in the group) and holds, by its size, events from there on; the events
// before it leave once no later window can hold them. With a size that reaches back from an end (a
// duration: "the last y seconds, every N tokens"), window k instead ends at the (k*N)-th event
// and looks back from it.
#pragma once

#include <cstdint>

#include "runtime/windows/window_size.hpp"
#include "runtime/windows/window_step.hpp"

namespace cwf {

class WindowStepTokens final : public WindowStep {
 public:
  WindowStepTokens(std::int64_t n, const WindowSize& size)
      : n_(static_cast<std::uint64_t>(n)), looks_back_(size.reaches_back_from_end()) {}

  bool looks_back() const override { return looks_back_; }
  bool bounds_by_arrival() const override { return true; }
  bool place(const WindowGroup& group, const WindowCursor& cursor, const WindowProgress& progress,
             WindowPlace& place) const override;
  void bounds(const WindowCursor& cursor, WindowPlace& place) const override;
  bool next_bound_reached(const WindowGroup& group, const WindowPlace& place,
                          const WindowProgress& progress) const override;
  StepClosing closing(const WindowPlace& place, const WindowProgress& progress) const override;
  std::uint64_t stepping_seq(const WindowCursor& cursor) const override {
    return cursor.origin + cursor.k * n_;
  }
  void fold(WindowCursor& cursor) const override {
    cursor.origin += cursor.k * n_;
    cursor.k = 0;
  }

 private:
  std::uint64_t n_;
  bool looks_back_;
};

}  // namespace cwf
