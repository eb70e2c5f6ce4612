#include "actors/eca/event_expression.hpp"

#include <cctype>

#include "runtime/time/duration.hpp"

namespace cwf::eca {

std::string_view event_op_name(EventOp op) {
  switch (op) {
    case EventOp::primitive:
      return "primitive";
    case EventOp::seq:
      return "SEQ";
    case EventOp::con:
      return "CON";
    case EventOp::dex:
      return "DEX";
    case EventOp::ccr:
      return "CCR";
    case EventOp::rep:
      return "REP";
    case EventOp::in:
      return "IN";
  }
  return "?";
}

std::string EventExpr::to_string() const {
  if (op == EventOp::primitive) return primitive;
  std::string text(event_op_name(op));
  text += '(';
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i) text += ", ";
    text += args[i]->to_string();
  }
  if (op == EventOp::rep && args.size() == 2) text += ", " + format_duration(within);
  text += ')';
  return text;
}

namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  EventExprPtr parse() {
    auto expr = expression();
    skip_space();
    if (pos_ < text_.size())
      fail("unexpected '" + std::string(1, text_[pos_]) + "' after the event");
    return expr;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw EventSyntaxError(pos_ + 1, message);
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  std::string found() const {
    return pos_ < text_.size() ? "'" + std::string(1, text_[pos_]) + "'" : "the end";
  }
  void expect(char c) {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != c)
      fail(std::string("expected '") + c + "' but found " + found());
    ++pos_;
  }
  std::string name(const char* what) {
    skip_space();
    std::size_t start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_]))
      ++pos_;
    if (start == pos_) fail(std::string("expected ") + what + " but found " + found());
    return std::string(text_.substr(start, pos_ - start));
  }

  EventExprPtr expression() {
    skip_space();
    std::size_t start = pos_;
    std::string word = name("an event (REQ, RPL, EXC, TIME, SEQ, CON, DEX, CCR, REP or IN)");
    auto expr = std::make_shared<EventExpr>();
    if (word == "REQ" || word == "RPL" || word == "EXC" || word == "TIME") {
      expect('(');
      std::string service = name(word == "TIME" ? "a time event name" : "a service name");
      std::string outcome;
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == '.') {
        ++pos_;
        outcome = name("an outcome after '.'");
      }
      if (word == "REQ" && !outcome.empty())
        throw EventSyntaxError(start + 1,
                               "REQ names a service without an outcome: REQ(" + service + ")");
      if (word == "TIME" && !outcome.empty())
        throw EventSyntaxError(start + 1, "TIME takes a name without '.'");
      if ((word == "RPL" || word == "EXC") && outcome.empty())
        throw EventSyntaxError(start + 1,
                               word + " needs an outcome: " + word + "(" + service + ".Done)");
      expect(')');
      expr->primitive = word + "(" + service + (outcome.empty() ? "" : "." + outcome) + ")";
      return expr;
    }
    if (word == "SEQ")
      expr->op = EventOp::seq;
    else if (word == "CON")
      expr->op = EventOp::con;
    else if (word == "DEX")
      expr->op = EventOp::dex;
    else if (word == "CCR")
      expr->op = EventOp::ccr;
    else if (word == "REP")
      expr->op = EventOp::rep;
    else if (word == "IN")
      expr->op = EventOp::in;
    else
      throw EventSyntaxError(start + 1, "unknown event operator '" + word +
                                            "' (expected REQ, RPL, EXC, TIME, SEQ, CON, DEX, "
                                            "CCR, REP or IN)");
    expect('(');
    expr->args.push_back(expression());
    expect(',');
    expr->args.push_back(expression());
    if (expr->op == EventOp::rep || expr->op == EventOp::in) {
      expect(',');
      skip_space();
      if (expr->op == EventOp::rep && pos_ < text_.size() &&
          std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        std::size_t begin = pos_;
        while (pos_ < text_.size() && text_[pos_] != ')' && text_[pos_] != ',')
          ++pos_;
        std::string reason;
        auto d = try_parse_duration(text_.substr(begin, pos_ - begin), &reason);
        if (!d) throw EventSyntaxError(begin + 1, "expected a duration (e.g. 30 s): " + reason);
        if (*d <= 0) throw EventSyntaxError(begin + 1, "the REP interval must be positive");
        expr->within = *d;
      } else {
        expr->args.push_back(expression());
      }
    }
    expect(')');
    return expr;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

EventExprPtr parse_event_expression(std::string_view text) {
  return Parser(text).parse();
}

}  // namespace cwf::eca
