#include "runtime/windows/window_parts.hpp"

#include <utility>

#include "runtime/windows/window_shape_of.hpp"
#include "runtime/windows/window_size_time.hpp"
#include "runtime/windows/window_size_tokens.hpp"
#include "runtime/windows/window_size_unbounded.hpp"
#include "runtime/windows/window_size_waves.hpp"
#include "runtime/windows/window_step_every_event.hpp"
#include "runtime/windows/window_step_time.hpp"
#include "runtime/windows/window_step_tokens.hpp"
#include "runtime/windows/window_step_waves.hpp"

namespace cwf {

namespace {

template <class Step, class Size>
void assemble(WindowParts& parts, std::unique_ptr<Step> step, std::unique_ptr<Size> size) {
  parts.shape = std::make_unique<WindowShapeOf<Step, Size>>(*step, *size);
  parts.step = std::move(step);
  parts.size = std::move(size);
}

// The step is chosen by its own unit; it may ask the size how it reaches (WindowStepTokens,
// WindowStepTime).
template <class Size>
void with_step(WindowParts& parts, const std::optional<WindowExtent>& step,
               std::unique_ptr<Size> size) {
  if (!step) return assemble(parts, std::make_unique<WindowStepEveryEvent>(), std::move(size));
  switch (step->unit) {
    case WindowUnit::tokens: {
      auto tokens = std::make_unique<WindowStepTokens>(step->amount, *size);
      return assemble(parts, std::move(tokens), std::move(size));
    }
    case WindowUnit::time: {
      auto time = std::make_unique<WindowStepTime>(step->amount, *size);
      return assemble(parts, std::move(time), std::move(size));
    }
    case WindowUnit::waves:
      return assemble(parts, std::make_unique<WindowStepWaves>(step->amount), std::move(size));
  }
}

}  // namespace

WindowParts make_window_parts(const WindowSpec& spec) {
  WindowParts parts;
  if (!spec.size) {
    with_step(parts, spec.step, std::make_unique<WindowSizeUnbounded>());
    return parts;
  }
  switch (spec.size->unit) {
    case WindowUnit::tokens:
      with_step(parts, spec.step, std::make_unique<WindowSizeTokens>(spec.size->amount));
      break;
    case WindowUnit::time:
      with_step(parts, spec.step, std::make_unique<WindowSizeTime>(spec.size->amount));
      break;
    case WindowUnit::waves:
      with_step(parts, spec.step, std::make_unique<WindowSizeWaves>(spec.size->amount));
      break;
  }
  return parts;
}

}  // namespace cwf
