// The event language of Singh's dependencies: literals e and ~e, 0, T, sequence (·), choice (+)
// and conjunction (|). Expressions are plain values; `normalise` brings them into the form the
// residuation rules assume (no + or | inside a sequence, sequences are flat lists of literals).
#pragma once

#include <string>
#include <vector>

namespace cwf::guards {

// An event or its complement ("e will never happen"). Parameterised names such as c_buy[cid]
// are kept whole: the parameter is part of the event type's name.
struct Literal {
  std::string event;
  bool complement = false;

  Literal complemented() const { return {event, !complement}; }
  std::string text() const { return complement ? "~" + event : event; }
  bool operator==(const Literal&) const = default;
  auto operator<=>(const Literal&) const = default;
};

// The literal a text names: "~e" is e's complement, anything else the event itself (the
// inverse of Literal::text, as attempts and messages carry literals).
Literal parse_literal(const std::string& text);

struct EventExpr {
  enum class Kind { zero, top, literal, sequence, choice, conjunction };

  Kind kind = Kind::top;
  Literal literal;                  // for Kind::literal
  std::vector<EventExpr> children;  // for sequence, choice and conjunction

  static EventExpr zero() { return EventExpr{Kind::zero, {}, {}}; }
  static EventExpr top() { return EventExpr{Kind::top, {}, {}}; }
  static EventExpr of(Literal literal) { return EventExpr{Kind::literal, std::move(literal), {}}; }
  static EventExpr sequence(std::vector<EventExpr> parts);
  static EventExpr choice(std::vector<EventExpr> parts);
  static EventExpr conjunction(std::vector<EventExpr> parts);

  bool is_zero() const { return kind == Kind::zero; }
  bool is_top() const { return kind == Kind::top; }
  bool operator==(const EventExpr&) const = default;
};

// Canonical text: `·` between sequence members, ` + ` and ` | `, parentheses only where the
// precedence (· binds tightest, then |, then +) needs them. `ascii` prints `.` for `·`.
std::string to_text(const EventExpr& expression, bool ascii = false);

// Distributes · over + and |, flattens nested operators, drops 0 and T where they are neutral
// or absorbing, removes duplicate members (keeping the first), and turns a sequence that
// mentions an event twice (or an event and its complement) into 0, since no trace has it.
EventExpr normalise(const EventExpr& expression);

// The event names an expression mentions, in order of first appearance.
std::vector<std::string> events_of(const EventExpr& expression);

// True when `expression` mentions `event` or its complement.
bool mentions(const EventExpr& expression, const std::string& event);

// For a normalised sequence (or single literal) the literals in order; empty otherwise.
std::vector<Literal> literals_of_sequence(const EventExpr& expression);

}  // namespace cwf::guards
