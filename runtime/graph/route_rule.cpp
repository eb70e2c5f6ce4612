#include "runtime/graph/route_rule.hpp"

#include <stdexcept>
#include <string>

#include "runtime/expressions/expr_error.hpp"
#include "runtime/values/mix64.hpp"

namespace cwf {

RouteRule::RouteRule(Expression by, int receivers, How how,
                     std::optional<Expression> broadcast_when)
    : by_(std::move(by)),
      receivers_(receivers),
      how_(how),
      broadcast_when_(std::move(broadcast_when)) {}

RouteRule::How RouteRule::how_named(std::string_view name) {
  if (name == "hash") return How::hash;
  if (name == "modulo") return How::modulo;
  throw std::invalid_argument("expected hash or modulo, got '" + std::string(name) + "'");
}

int RouteRule::by_hash(const Value& key, int receivers) {
  // Mixed: small integer keys hash to themselves and would go round the receivers in turn.
  return static_cast<int>(mix64(key.hash()) % static_cast<std::uint64_t>(receivers));
}

int RouteRule::by_number(const Value& key, int receivers) {
  if (!key.is_int())
    throw ExprError("with modulo partitioning the key must be a whole number, got " + key.to_json(),
                    0);
  const std::int64_t n = receivers;
  return static_cast<int>(((key.as_int() % n) + n) % n);
}

std::string RouteRule::describe() const {
  std::string text = "partition_by " + by_.source();
  if (how_ == How::modulo) text += ", modulo";
  if (broadcast_when_) text += ", broadcast_when " + broadcast_when_->source();
  return text;
}

std::string RouteRule::describe(int receiver) const {
  return describe() + ": " + std::to_string(receiver + 1) + " of " + std::to_string(receivers_);
}

int RouteRule::choose(const Value& token) const {
  if (broadcast_when_) {
    try {
      if (broadcast_when_->evaluate(token).truthy()) return kEveryReceiver;
    } catch (const ExprError& e) {
      throw ExprError(std::string("broadcast_when: ") + e.what(), 0);
    }
  }
  try {
    const Value key = by_.evaluate(token);
    return how_ == How::modulo ? by_number(key, receivers_) : by_hash(key, receivers_);
  } catch (const ExprError& e) {
    throw ExprError(std::string("by: ") + e.what(), 0);
  }
}

}  // namespace cwf
