#include "actors/pubsub/nats_subject_template.hpp"

#include <stdexcept>

#include "actors/pubsub/nats_connection.hpp"

namespace cwf::pubsub {

namespace {

// The index of the `}` closing the part that starts after `open`, skipping braces of record
// literals and quoted strings inside the expression; npos if none.
std::size_t closing_brace(std::string_view text, std::size_t open) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = open + 1; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (depth == 0) return i;
      --depth;
    }
  }
  return std::string_view::npos;
}

}  // namespace

SubjectTemplate::SubjectTemplate(std::string_view text) : text_(text) {
  std::size_t i = 0;
  std::string literal;
  while (i < text.size()) {
    if (text[i] != '{') {
      literal.push_back(text[i++]);
      continue;
    }
    std::size_t close = closing_brace(text, i);
    if (close == std::string_view::npos)
      throw std::invalid_argument("column " + std::to_string(i + 1) + ": '{' is never closed");
    if (!literal.empty()) parts_.push_back({false, std::move(literal), {}});
    literal.clear();
    std::string_view source = text.substr(i + 1, close - i - 1);
    try {
      parts_.push_back({true, {}, Expression::compile(source)});
    } catch (const ExprError& e) {
      throw std::invalid_argument("in the part at column " + std::to_string(i + 1) + ": " +
                                  e.what());
    }
    i = close + 1;
  }
  if (!literal.empty() || parts_.empty()) parts_.push_back({false, std::move(literal), {}});
  if (is_constant() && !valid_subject(parts_[0].literal, false))
    throw std::invalid_argument("'" + text_ +
                                "' is not a subject to publish to (dot-separated tokens, no "
                                "spaces or wildcards)");
}

void SubjectTemplate::render(const Value& record, std::string& out) const {
  out.clear();
  for (const Part& part : parts_) {
    if (!part.is_expression) {
      out += part.literal;
      continue;
    }
    Value v = part.expression.evaluate(record);
    if (v.is_string())
      out += v.as_string();
    else
      v.append_json(out);
  }
  if (!is_constant() && !valid_subject(out, false))
    throw std::invalid_argument("subject '" + out + "' is not valid (from '" + text_ + "')");
}

}  // namespace cwf::pubsub
