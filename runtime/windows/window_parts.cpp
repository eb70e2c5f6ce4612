#include "runtime/windows/window_parts.hpp"

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

std::unique_ptr<WindowSize> make_size(const std::optional<WindowExtent>& size) {
  if (!size) return std::make_unique<WindowSizeUnbounded>();
  switch (size->unit) {
    case WindowUnit::tokens:
      return std::make_unique<WindowSizeTokens>(size->amount);
    case WindowUnit::time:
      return std::make_unique<WindowSizeTime>(size->amount);
    case WindowUnit::waves:
      return std::make_unique<WindowSizeWaves>(size->amount);
  }
  return nullptr;
}

// The step may ask the size how it reaches (WindowStepTokens, WindowStepTime).
std::unique_ptr<WindowStep> make_step(const std::optional<WindowExtent>& step,
                                      const WindowSize& size) {
  if (!step) return std::make_unique<WindowStepEveryEvent>();
  switch (step->unit) {
    case WindowUnit::tokens:
      return std::make_unique<WindowStepTokens>(step->amount, size);
    case WindowUnit::time:
      return std::make_unique<WindowStepTime>(step->amount, size);
    case WindowUnit::waves:
      return std::make_unique<WindowStepWaves>(step->amount);
  }
  return nullptr;
}

}  // namespace

WindowParts make_window_parts(const WindowSpec& spec) {
  WindowParts parts;
  parts.size = make_size(spec.size);
  parts.step = make_step(spec.step, *parts.size);
  return parts;
}

}  // namespace cwf
