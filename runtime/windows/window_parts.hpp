// The step and the size of a port's windows, built once per port from its WindowSpec and shared
// by all its groups (WindowGroup). Each is chosen from its own unit alone; how they combine is
// theirs to say through their interfaces (WindowStep, WindowSize). The shape is the two put
// together for their pair of kinds (WindowShape): what forms each window.
#pragma once

#include <memory>

#include "runtime/windows/window_shape.hpp"
#include "runtime/windows/window_size.hpp"
#include "runtime/windows/window_spec.hpp"
#include "runtime/windows/window_step.hpp"

namespace cwf {

struct WindowParts {
  std::unique_ptr<WindowSize> size;
  std::unique_ptr<WindowStep> step;
  std::unique_ptr<WindowShape> shape;  // refers to the two above: declared last, destroyed first
};

WindowParts make_window_parts(const WindowSpec& spec);

}  // namespace cwf
