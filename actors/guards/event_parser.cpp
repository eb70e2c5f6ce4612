#include "actors/guards/event_parser.hpp"

#include <cctype>

namespace cwf::guards {

ParseError::ParseError(std::size_t column, const std::string& message)
    : std::runtime_error("column " + std::to_string(column) + ": " + message),
      column_(column),
      message_(message) {}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  EventExpr parse_all() {
    EventExpr result = parse_choice();
    skip_space();
    if (position_ < text_.size()) fail("expected an operator (+, |, ·) or the end");
    return result;
  }

 private:
  EventExpr parse_choice() {
    std::vector<EventExpr> members{parse_conjunction()};
    while (accept("+"))
      members.push_back(parse_conjunction());
    return members.size() == 1 ? members.front() : EventExpr::choice(std::move(members));
  }

  EventExpr parse_conjunction() {
    std::vector<EventExpr> members{parse_sequence()};
    while (accept("|"))
      members.push_back(parse_sequence());
    return members.size() == 1 ? members.front() : EventExpr::conjunction(std::move(members));
  }

  EventExpr parse_sequence() {
    std::vector<EventExpr> members{parse_primary()};
    while (accept("\u00b7") || accept(".") || accept("\u22c5"))
      members.push_back(parse_primary());
    return members.size() == 1 ? members.front() : EventExpr::sequence(std::move(members));
  }

  EventExpr parse_primary() {
    skip_space();
    if (accept("(")) {
      EventExpr inner = parse_choice();
      if (!accept(")")) fail("expected ')'");
      return inner;
    }
    if (accept("\u22a4")) return EventExpr::top();
    if (accept("~") || accept("\u00ac")) {
      skip_space();
      if (!at_identifier_start()) fail("expected an event name after '~'");
      return EventExpr::of(Literal{read_event_name(), true});
    }
    if (position_ < text_.size() && text_[position_] == '0') {
      ++position_;
      return EventExpr::zero();
    }
    if (!at_identifier_start()) fail("expected an event name, ~event, 0, T or '('");
    std::string name = read_event_name();
    if (name == "T") return EventExpr::top();
    return EventExpr::of(Literal{name, false});
  }

  bool at_identifier_start() const {
    return position_ < text_.size() &&
           (std::isalpha(static_cast<unsigned char>(text_[position_])) || text_[position_] == '_');
  }

  // identifier, optionally followed by [parameter, …]
  std::string read_event_name() {
    std::size_t start = position_;
    while (position_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[position_])) || text_[position_] == '_'))
      ++position_;
    if (position_ < text_.size() && text_[position_] == '[') {
      ++position_;
      bool named = false;
      while (position_ < text_.size() && text_[position_] != ']') {
        char c = text_[position_];
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != ',' && c != ' ')
          fail("expected a parameter name or ']'");
        named |= c != ' ' && c != ',';
        ++position_;
      }
      if (position_ >= text_.size()) fail("expected ']'");
      if (!named) fail("expected a parameter name");
      ++position_;
    }
    return std::string(text_.substr(start, position_ - start));
  }

  void skip_space() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_])))
      ++position_;
  }

  bool accept(std::string_view token) {
    skip_space();
    if (text_.substr(position_, token.size()) != token) return false;
    position_ += token.size();
    return true;
  }

  // Columns count characters, not bytes: `·` is two bytes in UTF-8.
  std::size_t column() const {
    std::size_t column = 1;
    for (std::size_t i = 0; i < position_ && i < text_.size(); ++i)
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;
    return column;
  }

  [[noreturn]] void fail(const std::string& expected) const {
    std::string found = position_ >= text_.size()
                            ? "the end of the expression"
                            : "'" + std::string(text_.substr(position_, 1)) + "'";
    if (position_ < text_.size() && static_cast<unsigned char>(text_[position_]) >= 0x80) {
      std::size_t length = 1;
      while (position_ + length < text_.size() &&
             (static_cast<unsigned char>(text_[position_ + length]) & 0xC0) == 0x80)
        ++length;
      found = "'" + std::string(text_.substr(position_, length)) + "'";
    }
    throw ParseError(column(), expected + ", found " + found);
  }

  std::string_view text_;
  std::size_t position_ = 0;
};

}  // namespace

EventExpr parse_event_expression(std::string_view text) {
  return Parser(text).parse_all();
}

}  // namespace cwf::guards
