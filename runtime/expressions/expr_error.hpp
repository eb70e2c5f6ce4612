// The one error type of the expression language, for compile-time and run-time problems alike.
#pragma once

#include <exception>
#include <string>

namespace cwf {

// `column` is the 1-based column in the expression source that the problem is attributed to (the
// offending token at compile time, the operator or function name at run time), or 0 when the
// problem has no position (for example too few variables passed to evaluate).
struct ExprError : std::exception {
  ExprError(std::string message, int column);

  // "column N: message", or just the message when column is 0.
  const char* what() const noexcept override { return what_.c_str(); }

  std::string message;
  int column;

 private:
  std::string what_;
};

}  // namespace cwf
