// The textual syntax of event types (EVE §3.2), parsed into a tree:
//
//   primitive  REQ(Service) | RPL(Service.Outcome) | EXC(Service.Exception) | TIME(name)
//   SEQ(a, b)  a then b (b strictly later)          CON(a, b)  both, in any order
//   DEX(a, b)  either one (exclusive disjunction)   CCR(a, b)  both with the same timestamp
//   REP(a, s, e | DURATION)   a has NOT occurred between an occurrence of s and the next e, or
//                             within DURATION (e.g. 30 s) after s: the paper's REP as worded
//   IN(a, s, e)               occurrences of a that happen while an interval opened by s and not
//                             yet closed by e is open
//
// Names are letters, digits, '_' and '-'; whitespace is free between tokens. The canonical text
// (`to_string`) writes operators as above with ", " between arguments; it names the composite
// occurrence type.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/time/clock.hpp"

namespace cwf::eca {

enum class EventOp { primitive, seq, con, dex, ccr, rep, in };

struct EventExpr {
  EventOp op = EventOp::primitive;
  std::string primitive;  // the primitive type name (op == primitive)
  std::vector<std::shared_ptr<const EventExpr>> args;
  Duration within = 0;  // REP with a duration instead of a closing event
  std::string to_string() const;
};

using EventExprPtr = std::shared_ptr<const EventExpr>;

// what(): "column N: message" (1-based column in the parsed text).
class EventSyntaxError : public std::runtime_error {
 public:
  EventSyntaxError(std::size_t column, const std::string& message)
      : std::runtime_error("column " + std::to_string(column) + ": " + message), column_(column) {}
  std::size_t column() const { return column_; }

 private:
  std::size_t column_;
};

EventExprPtr parse_event_expression(std::string_view text);

std::string_view event_op_name(EventOp op);

}  // namespace cwf::eca
