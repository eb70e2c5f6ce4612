#include "runtime/expressions/expr_operators.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "runtime/expressions/expr_error.hpp"

namespace cwf::expr {

std::string describe_kinds(KindSet kinds) {
  if ((kinds & kNumberKinds) == kNumberKinds) {
    kinds = static_cast<KindSet>(kinds & ~kNumberKinds);
    std::string rest = kinds ? describe_kinds(kinds) : "";
    return rest.empty() ? "number" : "number or " + rest;
  }
  std::string out;
  for (int k = 0; k <= static_cast<int>(Kind::record); ++k) {
    if (!(kinds & kind_bit(static_cast<Kind>(k)))) continue;
    if (!out.empty()) out += " or ";
    out += kind_name(static_cast<Kind>(k));
  }
  return out;
}

std::string_view symbol(ArithOp op) {
  switch (op) {
    case ArithOp::add:
      return "+";
    case ArithOp::sub:
      return "-";
    case ArithOp::mul:
      return "*";
    case ArithOp::div:
      return "/";
    case ArithOp::mod:
      return "%";
  }
  return "?";
}

std::string_view symbol(CompareOp op) {
  switch (op) {
    case CompareOp::eq:
      return "==";
    case CompareOp::ne:
      return "!=";
    case CompareOp::lt:
      return "<";
    case CompareOp::le:
      return "<=";
    case CompareOp::gt:
      return ">";
    case CompareOp::ge:
      return ">=";
  }
  return "?";
}

namespace {

[[noreturn]] void operand_error(ArithOp op, Kind a, Kind b, int column) {
  throw ExprError("cannot apply '" + std::string(symbol(op)) + "' to " + std::string(kind_name(a)) +
                      " and " + std::string(kind_name(b)),
                  column);
}

Value real_arith(ArithOp op, double x, double y) {
  switch (op) {
    case ArithOp::add:
      return Value(x + y);
    case ArithOp::sub:
      return Value(x - y);
    case ArithOp::mul:
      return Value(x * y);
    case ArithOp::div:
      return y == 0 ? Value() : Value(x / y);
    case ArithOp::mod:
      return y == 0 ? Value() : Value(std::fmod(x, y));
  }
  return Value();
}

}  // namespace

Value arith(ArithOp op, const Value& a, const Value& b, int column) {
  if (a.is_int() && b.is_int()) {
    Value out;
    if (!int_arith(op, a.as_int(), b.as_int(), out))
      throw ExprError("integer overflow in '" + std::string(symbol(op)) + "'", column);
    return out;
  }
  if (a.is_null() || b.is_null()) return Value();
  if (a.is_number() && b.is_number()) return real_arith(op, a.as_double(), b.as_double());
  if (op == ArithOp::add && a.is_string() && b.is_string()) {
    std::string joined;
    joined.reserve(a.as_string().size() + b.as_string().size());
    joined += a.as_string();
    joined += b.as_string();
    return Value(joined);
  }
  if (op == ArithOp::add && a.is_array() && b.is_array()) {
    std::vector<Value> items;
    items.reserve(a.as_array().size() + b.as_array().size());
    items.insert(items.end(), a.as_array().begin(), a.as_array().end());
    items.insert(items.end(), b.as_array().begin(), b.as_array().end());
    return Value::array(std::move(items));
  }
  operand_error(op, a.kind(), b.kind(), column);
}

Value negate(const Value& a, int column) {
  if (a.is_int()) {
    std::int64_t r = 0;
    if (__builtin_sub_overflow(std::int64_t{0}, a.as_int(), &r))
      throw ExprError("integer overflow in '-'", column);
    return Value(r);
  }
  if (a.is_double()) return Value(-a.as_double());
  if (a.is_null()) return Value();
  throw ExprError("cannot apply '-' to " + std::string(kind_name(a.kind())), column);
}

namespace {
Order from(std::strong_ordering c) {
  return c < 0 ? Order::less : (c > 0 ? Order::greater : Order::equal);
}
}  // namespace

Order order(const Value& a, const Value& b) noexcept {
  if (a.is_number() && b.is_number()) return from(compare(a, b));
  if (a.is_null() || b.is_null()) return Order::unordered;
  Kind kind = a.kind();
  if (kind != b.kind()) return Order::incompatible;
  switch (kind) {
    case Kind::boolean:
    case Kind::string:
      return from(compare(a, b));
    case Kind::array: {
      auto x = a.as_array(), y = b.as_array();
      std::size_t n = std::min(x.size(), y.size());
      for (std::size_t i = 0; i < n; ++i)
        if (Order o = order(x[i], y[i]); o != Order::equal) return o;
      return from(x.size() <=> y.size());
    }
    default:
      return Order::incompatible;  // records have no order
  }
}

std::string describe_operand(const Value& v) {
  constexpr std::size_t kMaxShown = 40;
  std::string text;
  if (v.is_string()) {
    std::string json = v.to_json();  // escapes control characters
    text = "'";
    for (std::size_t i = 1; i + 1 < json.size(); ++i) {
      if (json[i] == '\\') {  // keep JSON's escapes, except that a quote needs none here
        if (json[i + 1] != '"') text += '\\';
        text += json[++i];
        continue;
      }
      if (json[i] == '\'') text += '\\';
      text += json[i];
    }
    text += "'";
  } else {
    text = v.to_json();
  }
  if (text.size() > kMaxShown) {
    std::size_t cut = kMaxShown;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
      --cut;  // not inside a UTF-8 sequence
    text.resize(cut);
    text += "...";
  }
  if (v.is_null()) return text;
  return std::string(kind_name(v.kind())) + " " + text;
}

bool compare_holds_otherwise(CompareOp op, const Value& a, const Value& b, int column) {
  if (op == CompareOp::eq) return compare(a, b) == 0;
  if (op == CompareOp::ne) return compare(a, b) != 0;
  const Order o = order(a, b);
  if (o == Order::incompatible) {
    std::string message = "cannot compare " + describe_operand(a) + " " + std::string(symbol(op)) +
                          " " + describe_operand(b);
    if (a.is_record() && b.is_record()) message += " (records have no order)";
    throw ExprError(message, column);
  }
  switch (op) {
    case CompareOp::lt:
      return o == Order::less;
    case CompareOp::le:
      return o == Order::less || o == Order::equal;
    case CompareOp::gt:
      return o == Order::greater;
    case CompareOp::ge:
      return o == Order::greater || o == Order::equal;
    default:
      return false;
  }
}

namespace {

// The kind of `x op y` for non-null kinds x and y, or 0 when the operator rejects them.
KindSet pair_result(ArithOp op, Kind x, Kind y) {
  bool xn = x == Kind::integer || x == Kind::real;
  bool yn = y == Kind::integer || y == Kind::real;
  if (xn && yn) return x == Kind::integer && y == Kind::integer ? kIntKind : kRealKind;
  if (op == ArithOp::add && x == y && (x == Kind::string || x == Kind::array)) return kind_bit(x);
  return 0;
}

}  // namespace

KindSet arith_kinds(ArithOp op, KindSet a, KindSet b) {
  KindSet out = 0;
  if ((a & kNullKind) || (b & kNullKind) || op == ArithOp::div || op == ArithOp::mod)
    out |= kNullKind;  // null operands, and division by zero
  for (int x = 1; x <= static_cast<int>(Kind::record); ++x) {
    if (!(a & kind_bit(static_cast<Kind>(x)))) continue;
    for (int y = 1; y <= static_cast<int>(Kind::record); ++y)
      if (b & kind_bit(static_cast<Kind>(y)))
        out |= pair_result(op, static_cast<Kind>(x), static_cast<Kind>(y));
  }
  return out;
}

void check_arith_kinds(ArithOp op, KindSet a, KindSet b, int column) {
  KindSet an = static_cast<KindSet>(a & ~kNullKind), bn = static_cast<KindSet>(b & ~kNullKind);
  if (!an || !bn) return;  // only null: the result is null, not an error
  if (arith_kinds(op, an, bn) & ~kNullKind) return;
  constexpr KindSet kUnknown = kAnyKind & ~kNullKind;
  std::string message = "cannot apply '" + std::string(symbol(op)) + "' to ";
  if (an == kUnknown)  // name only the side whose kind is known
    message += "a right operand of kind " + describe_kinds(bn);
  else if (bn == kUnknown)
    message += "a left operand of kind " + describe_kinds(an);
  else
    message += describe_kinds(an) + " and " + describe_kinds(bn);
  throw ExprError(message, column);
}

void check_compare_kinds(CompareOp op, KindSet a, KindSet b, int column) {
  if (op == CompareOp::eq || op == CompareOp::ne) return;
  std::string symbol_text(symbol(op));
  if (a == kNullKind || b == kNullKind)
    throw ExprError("'" + symbol_text + "' with null is always false; test with exists(...)",
                    column);
  KindSet an = static_cast<KindSet>(a & ~kNullKind), bn = static_cast<KindSet>(b & ~kNullKind);
  constexpr KindSet kSameKindOrdered = kBoolKind | kStringKind | kArrayKind;
  if (((an & kNumberKinds) && (bn & kNumberKinds)) || (an & bn & kSameKindOrdered)) return;
  if (an == kRecordKind || bn == kRecordKind)
    throw ExprError("cannot apply '" + symbol_text + "' to a record (records have no order)",
                    column);
  throw ExprError(
      "cannot compare " + describe_kinds(an) + " " + symbol_text + " " + describe_kinds(bn),
      column);
}

void check_negate_kinds(KindSet a, int column) {
  KindSet an = static_cast<KindSet>(a & ~kNullKind);
  if (an && !(an & kNumberKinds))
    throw ExprError("cannot apply '-' to " + describe_kinds(an), column);
}

}  // namespace cwf::expr
