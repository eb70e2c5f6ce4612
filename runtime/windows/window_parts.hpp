// The step and the size of a port's windows, built once per port from its WindowSpec and shared
// by all its groups (WindowGroup). Each is chosen from its own unit alone; how they combine is
// theirs to say through their interfaces (WindowStep, WindowSize).
#pragma once

#include <memory>

#include "runtime/windows/window_size.hpp"
#include "runtime/windows/window_spec.hpp"
#include "runtime/windows/window_step.hpp"

namespace cwf {

struct WindowParts {
  std::unique_ptr<WindowSize> size;
  std::unique_ptr<WindowStep> step;
};

WindowParts make_window_parts(const WindowSpec& spec);

}  // namespace cwf
