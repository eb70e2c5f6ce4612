#include "actors/window_variables.hpp"

namespace cwf::actors {

std::size_t declare_window_variables(ExprEnvironment& env) {
  std::size_t first = env.declare("window_start");
  env.declare("window_end");
  env.declare("group");
  return first;
}

void bind_window_variables(const Window& window, std::span<Value, kWindowVariables> out) {
  std::optional<Timestamp> start = window.start(), end = window.end();
  out[0] = start ? Value(*start) : Value();
  out[1] = end ? Value(*end) : Value();
  out[2] = window.key ? *window.key : Value();
}

const ExprEnvironment& window_environment() {
  static const ExprEnvironment env = [] {
    ExprEnvironment e;
    declare_window_variables(e);
    return e;
  }();
  return env;
}

}  // namespace cwf::actors
