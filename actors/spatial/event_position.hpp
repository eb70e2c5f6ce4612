// An event's position on the sky, read by the `ra` and `dec` expressions an actor was given.
#pragma once

#include <optional>
#include <string>

#include "actors/spatial/sky_point.hpp"
#include "runtime/expressions/expr_error.hpp"
#include "runtime/expressions/expression.hpp"

namespace cwf::spatial {

// The position, or nullopt with `error` saying why (not numbers, beyond a pole, an expression
// that failed).
inline std::optional<SkyPoint> event_position(const Value& event, const Expression& ra,
                                              const Expression& dec, std::string& error) {
  try {
    const Value r = ra.evaluate(event), d = dec.evaluate(event);
    if (!r.is_number() || !d.is_number()) {
      error = "ra and dec must be numbers";
      return std::nullopt;
    }
    return sky_point(r.as_double(), d.as_double(), error);
  } catch (const ExprError& e) {
    error = e.what();
    return std::nullopt;
  }
}

}  // namespace cwf::spatial
