// WindowShape for one pair of a step and a size, known by type (see window_shape.hpp). Included
// where the parts are made (window_parts.cpp), where each pair's window forming is compiled.
#pragma once

#include "runtime/windows/window_group_forming.hpp"
#include "runtime/windows/window_shape.hpp"

namespace cwf {

template <class Step, class Size>
class WindowShapeOf final : public WindowShape {
 public:
  WindowShapeOf(const Step& step, const Size& size) : step_(step), size_(size) {}

  // Flattened: everything the window forming calls whose code is visible here (the group's
  // selection and expiry, the parts' per-window calls, the queue's small helpers) is inlined
  // into these two, once per pair of kinds. Left to its own budget the compiler kept the size's
  // selection and the next window's expiry as calls, about 40 instructions a window.
  [[gnu::flatten]] bool evaluate(WindowGroup& group, const WindowProgress& progress,
                                 Timestamp* deadline, const ExpireFn& expire) const override {
    return group.evaluate_as(step_, size_, progress, deadline, expire);
  }
  [[gnu::flatten]] void finish(WindowGroup& group, bool delete_used,
                               const ExpireFn& expire) const override {
    group.finish_as(step_, size_, delete_used, expire);
  }
  bool select(const WindowGroup& group, const WindowCursor& cursor, const WindowProgress& progress,
              WindowPlace& place, WindowSelection& out, Timestamp* deadline) const override {
    return select_forward(step_, size_, group, cursor, progress, place, out, deadline);
  }

 private:
  const Step& step_;  // the port's (WindowParts), outliving the shape
  const Size& size_;
};

}  // namespace cwf
