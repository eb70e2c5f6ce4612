#include "actors/pubsub/predicate.hpp"

#include <cmath>
#include <optional>
#include <utility>

namespace cwf::pubsub {

namespace {

struct OperatorSpelling {
  std::string_view text;
  Operator op;
};

constexpr OperatorSpelling kSpellings[] = {
    {"=", Operator::equal},
    {"==", Operator::equal},
    {"!=", Operator::not_equal},
    {"\xE2\x89\xA0", Operator::not_equal},  // ≠
    {"<>", Operator::not_equal},
    {"<", Operator::less},
    {"<=", Operator::less_equal},
    {"\xE2\x89\xA4", Operator::less_equal},  // ≤
    {">", Operator::greater},
    {">=", Operator::greater_equal},
    {"\xE2\x89\xA5", Operator::greater_equal},  // ≥
    {"prefix", Operator::prefix},
    {"exists", Operator::exists},
    {"between", Operator::between},
};

std::optional<Operator> parse_operator(std::string_view text) {
  for (const auto& s : kSpellings)
    if (s.text == text) return s.op;
  return std::nullopt;
}

bool same_kind(const Value& a, const Value& b) {
  return (a.is_number() && b.is_number()) || (a.is_string() && b.is_string()) ||
         (a.is_bool() && b.is_bool());
}

[[noreturn]] void fail(const Value& spec, const std::string& what) {
  throw FilterError(spec.to_json() + ": " + what);
}

// An operand of the kinds `allowed` names ("number or string", ...).
void check_operand(const Value& spec, const Value& operand, bool allow_bool, bool allow_number,
                   bool allow_string, std::string_view op) {
  bool ok = (allow_bool && operand.is_bool()) || (allow_number && operand.is_number()) ||
            (allow_string && operand.is_string());
  if (!ok) {
    std::string kinds;
    if (allow_bool) kinds += "a boolean, ";
    if (allow_number) kinds += "a number, ";
    if (allow_string) kinds += "a string, ";
    kinds.resize(kinds.size() - 2);
    if (auto last = kinds.rfind(", "); last != std::string::npos) kinds.replace(last, 2, " or ");
    fail(spec, "'" + std::string(op) + "' expects " + kinds + ", got " + operand.to_json());
  }
  if (operand.is_double() && std::isnan(operand.as_double()))
    fail(spec, "'" + std::string(op) + "' cannot compare with NaN");
}

}  // namespace

std::string_view operator_name(Operator op) {
  switch (op) {
    case Operator::equal:
      return "=";
    case Operator::not_equal:
      return "!=";
    case Operator::less:
      return "<";
    case Operator::less_equal:
      return "<=";
    case Operator::greater:
      return ">";
    case Operator::greater_equal:
      return ">=";
    case Operator::prefix:
      return "prefix";
    case Operator::exists:
      return "exists";
    case Operator::between:
      return "between";
  }
  return "?";
}

Predicate Predicate::parse(const Value& spec) {
  if (!spec.is_array())
    throw FilterError("expected a predicate [attribute, operator, value], got " + spec.to_json());
  auto items = spec.as_array();
  if (items.size() < 2)
    fail(spec, "expected [attribute, operator, value] (at least an attribute and an operator)");
  if (!items[0].is_string() || items[0].as_string().empty())
    fail(spec, "the attribute must be a non-empty string, got " + items[0].to_json());
  if (!items[1].is_string()) fail(spec, "the operator must be a string, got " + items[1].to_json());
  auto op = parse_operator(items[1].as_string());
  if (!op)
    fail(spec, "unknown operator '" + std::string(items[1].as_string()) +
                   "'; expected one of =, !=, <, <=, >, >=, prefix, exists, between");
  Predicate p;
  p.attribute = std::string(items[0].as_string());
  p.op = *op;
  std::string_view name = operator_name(*op);
  std::size_t operands = items.size() - 2;
  switch (*op) {
    case Operator::exists:
      if (operands != 0) fail(spec, "'exists' takes no value");
      return p;
    case Operator::between: {
      Value lo, hi;
      if (operands == 1 && items[2].is_array() && items[2].as_array().size() == 2) {
        lo = items[2].as_array()[0];
        hi = items[2].as_array()[1];
      } else if (operands == 2) {
        lo = items[2];
        hi = items[3];
      } else {
        fail(spec, "'between' expects two bounds: [attribute, between, low, high]");
      }
      check_operand(spec, lo, false, true, true, name);
      check_operand(spec, hi, false, true, true, name);
      if (!same_kind(lo, hi)) fail(spec, "the bounds of 'between' must be of one kind");
      p.operand = std::move(lo);
      p.upper = std::move(hi);
      return p;
    }
    default:
      break;
  }
  if (operands != 1) fail(spec, "'" + std::string(name) + "' expects one value");
  const Value& operand = items[2];
  switch (*op) {
    case Operator::equal:
    case Operator::not_equal:
      check_operand(spec, operand, true, true, true, name);
      break;
    case Operator::prefix:
      check_operand(spec, operand, false, false, true, name);
      break;
    default:
      check_operand(spec, operand, false, true, true, name);
      break;
  }
  p.operand = operand;
  return p;
}

bool Predicate::holds(const Value* value) const {
  if (!value || value->is_null()) return false;
  if (op == Operator::exists) return true;
  if (!same_kind(*value, operand)) return false;
  auto c = compare(*value, operand);
  switch (op) {
    case Operator::equal:
      return c == 0;
    case Operator::not_equal:
      return c != 0;
    case Operator::less:
      return c < 0;
    case Operator::less_equal:
      return c <= 0;
    case Operator::greater:
      return c > 0;
    case Operator::greater_equal:
      return c >= 0;
    case Operator::between:
      return c >= 0 && compare(*value, upper) <= 0;
    case Operator::prefix:
      return value->as_string().starts_with(operand.as_string());
    case Operator::exists:
      return true;
  }
  return false;
}

Value Predicate::to_value() const {
  std::vector<Value> items{Value(attribute), Value(operator_name(op))};
  if (op != Operator::exists) items.push_back(operand);
  if (op == Operator::between) items.push_back(upper);
  return Value::array(std::move(items));
}

}  // namespace cwf::pubsub
