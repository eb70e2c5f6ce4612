// The variables that describe the window an actor fires on, for the expressions of the actors
// that fire on windows (expression, map, filter):
//
//   window_start, window_end   the window's bounds in event time, as int nanoseconds
//                              (Window::start / end: a time window's interval, else the
//                              timestamps of its first and last event; null for an empty window
//                              without one)
//   group                      the window's group-by key (null without group-by)
//
// They are named like the fields `aggregate` adds to its output (window_start, window_end,
// group), so that an expression can build the same record.
#pragma once

#include <array>
#include <cstddef>
#include <span>

#include "runtime/actor/window.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/values/value.hpp"

namespace cwf::actors {

inline constexpr std::size_t kWindowVariables = 3;

// Declares window_start, window_end and group in `env`, in that order, after its own variables;
// returns the index of window_start.
std::size_t declare_window_variables(ExprEnvironment& env);

// Their values for `window`, into out[0], out[1], out[2].
void bind_window_variables(const Window& window, std::span<Value, kWindowVariables> out);

// An environment of only these three (map, filter: the input `/` is the token).
const ExprEnvironment& window_environment();

// The variables of one firing for an expression compiled with window_environment(): bound only
// when the expression uses them, so that a plain `/speed > 50` costs nothing more.
class WindowBinding {
 public:
  WindowBinding(const Expression& expression, const Window& window) {
    if (expression.variables_needed() == 0) return;
    bind_window_variables(window, values_);
    used_ = true;
  }
  Variables variables() const { return used_ ? Variables(values_) : Variables(); }

 private:
  std::array<Value, kWindowVariables> values_;
  bool used_ = false;
};

}  // namespace cwf::actors
