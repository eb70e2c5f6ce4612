// A NATS subject computed from a record: literal text with `{expression}` parts, e.g.
// `orders.{/region}` or `{/topic}`. Each part is an expression of the engine's language; its
// value is written as str() would (strings as they are, other values as JSON).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/expressions/expression.hpp"

namespace cwf::pubsub {

class SubjectTemplate {
 public:
  SubjectTemplate() = default;
  // Throws std::invalid_argument with the 1-based column of an unclosed brace or a bad
  // expression (its own column inside the part).
  explicit SubjectTemplate(std::string_view text);

  // The subject for `record` into `out`. Throws ExprError from a part, std::invalid_argument when
  // the result is not a valid subject to publish to (empty token, space, wildcard).
  void render(const Value& record, std::string& out) const;
  bool is_constant() const { return parts_.size() == 1 && !parts_[0].is_expression; }
  const std::string& text() const { return text_; }

 private:
  struct Part {
    bool is_expression = false;
    std::string literal;
    Expression expression;
  };
  std::string text_;
  std::vector<Part> parts_;
};

}  // namespace cwf::pubsub
