// No step: window k is formed when the group's k-th event arrives (events are numbered 0, 1, 2,
// ... as they arrive in the group), ends at that event and looks back from it; its size says how
// far.
#pragma once

#include <cstdint>

#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_step.hpp"

namespace cwf {

class WindowStepEveryEvent final : public WindowStep {
 public:
  bool looks_back() const override { return true; }
  // Windows that look back have no lower bound to place.
  bool place(const WindowGroup&, const WindowCursor&, const WindowProgress&,
             WindowPlace&) const override {
    return false;
  }
  void bounds(const WindowCursor&, WindowPlace&) const override {}
  bool next_bound_reached(const WindowGroup&, const WindowPlace&,
                          const WindowProgress&) const override {
    return false;
  }
  StepClosing closing(const WindowPlace&, const WindowProgress& progress) const override {
    return {progress.end_of_input, false, kNoDeadline};
  }
  // The origin is 0 but for a group that took the slot of one that ended (WindowGroup::start_at).
  std::uint64_t stepping_seq(const WindowCursor& cursor) const override {
    return cursor.origin + cursor.k;
  }
  // A window whose stepping event was used up or expired is empty, and so is every one after it
  // up to the next event still queued: the cursor jumps to that event's window (with none queued,
  // to the next to arrive) instead of passing each, however far the group's arrivals have got.
  bool skip_empty(const WindowGroup& group, WindowCursor& cursor) const override {
    cursor.k = group.first_live_seq_from(stepping_seq(cursor)) - cursor.origin;
    return true;
  }
};

}  // namespace cwf
