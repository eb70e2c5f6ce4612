// Parses the textual event language: literals `e`, `~e` (parameterised: `c_buy[cid]`), `0`,
// `T`, sequence `·` (or ASCII `.`), conjunction `|`, choice `+`, parentheses.
// Precedence: · binds tightest, then |, then +.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "actors/guards/event_expression.hpp"

namespace cwf::guards {

// what() is "column N: expected …, found …" (1-based column counted in characters).
class ParseError : public std::runtime_error {
 public:
  ParseError(std::size_t column, const std::string& message);
  std::size_t column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  std::size_t column_;
  std::string message_;
};

// The expression as written (not normalised).
EventExpr parse_event_expression(std::string_view text);

}  // namespace cwf::guards
