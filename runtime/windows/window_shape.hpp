// A port's step and size put together for their pair of kinds (WindowShapeOf<Step, Size>, in
// window_shape_of.hpp, made by make_window_parts): forming a group's windows — evaluating the next
// one, finishing it — is one virtual call per window, in which the step's and the size's code is
// inlined, both being final classes known there by type. What is done is WindowGroup's, the same
// for every pair (window_group_forming.hpp); only the calls to the parts differ.
#pragma once

#include <functional>

#include "runtime/time/clock.hpp"

namespace cwf {

class WindowGroup;
struct Event;
struct WindowCursor;
struct WindowPlace;
struct WindowProgress;
struct WindowSelection;

class WindowShape {
 public:
  using ExpireFn = std::function<void(Event&&)>;
  virtual ~WindowShape() = default;

  // WindowGroup::evaluate and WindowGroup::finish with the port's parts.
  virtual bool evaluate(WindowGroup& group, const WindowProgress& progress, Timestamp* deadline,
                        const ExpireFn& expire) const = 0;
  virtual void finish(WindowGroup& group, bool delete_used, const ExpireFn& expire) const = 0;
  // The size's selection from where the step places the cursor's window, alone (false: the
  // place is not reached, or the window is not ready): what evaluate() does for windows that
  // start at their lower bound, without the group's bookkeeping. For tests of the parts.
  virtual bool select(const WindowGroup& group, const WindowCursor& cursor,
                      const WindowProgress& progress, WindowPlace& place, WindowSelection& out,
                      Timestamp* deadline) const = 0;
};

}  // namespace cwf
