// Semantics of the expression operators, shared by evaluation and constant folding, plus the
// static kind checks the compiler runs on operands whose kind is known before evaluation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/values/value.hpp"

namespace cwf::expr {

// The set of kinds a subexpression may evaluate to, one bit per cwf::Kind.
using KindSet = std::uint8_t;
constexpr KindSet kind_bit(Kind kind) {
  return static_cast<KindSet>(1u << static_cast<int>(kind));
}
inline constexpr KindSet kNullKind = kind_bit(Kind::null);
inline constexpr KindSet kBoolKind = kind_bit(Kind::boolean);
inline constexpr KindSet kIntKind = kind_bit(Kind::integer);
inline constexpr KindSet kRealKind = kind_bit(Kind::real);
inline constexpr KindSet kNumberKinds = kIntKind | kRealKind;
inline constexpr KindSet kStringKind = kind_bit(Kind::string);
inline constexpr KindSet kArrayKind = kind_bit(Kind::array);
inline constexpr KindSet kRecordKind = kind_bit(Kind::record);
inline constexpr KindSet kAnyKind = 0x7f;

// "int", "string or array", ...
std::string describe_kinds(KindSet kinds);

enum class ArithOp : std::uint8_t { add, sub, mul, div, mod };
enum class CompareOp : std::uint8_t { eq, ne, lt, le, gt, ge };

std::string_view symbol(ArithOp op);
std::string_view symbol(CompareOp op);

// `a op b`. Null on either side gives null; division or modulo by zero gives null. Throws ExprError
// at `column` for operands the operator does not accept and for integer overflow.
Value arith(ArithOp op, const Value& a, const Value& b, int column);

// `-a`: numbers negate, null stays null, anything else throws ExprError at `column`.
Value negate(const Value& a, int column);

// How `<`, `<=`, `>`, `>=` and min/max order two values (docs/expressions.md, "Comparison").
// Numbers order numerically, strings bytewise, bools false before true, arrays lexicographically
// by the same rule. A null on either side (or in the array position that decides) leaves the pair
// unordered; values of kinds that have no common order, and records, are incompatible.
enum class Order : std::uint8_t { less, equal, greater, unordered, incompatible };
Order order(const Value& a, const Value& b) noexcept;

// `kind value` for error messages, the value shortened: "string 'n/a'", "int 30", "null".
std::string describe_operand(const Value& v);

// compare_holds of anything but two integers.
bool compare_holds_otherwise(CompareOp op, const Value& a, const Value& b, int column);
// `a op b`. == and != compare any two values (values of different kinds are unequal, ints and
// doubles compare numerically); the ordering operators follow `order`: an unordered pair gives
// false, an incompatible pair throws ExprError at `column` naming both operands, e.g.
// "cannot compare string 'n/a' > int 30". Two integers (a field against a field or a constant,
// the common case) inline, without a call.
inline bool compare_holds(CompareOp op, const Value& a, const Value& b, int column) {
  if (!a.is_int() || !b.is_int()) return compare_holds_otherwise(op, a, b, column);
  const std::int64_t x = a.as_int(), y = b.as_int();
  switch (op) {
    case CompareOp::eq:
      return x == y;
    case CompareOp::ne:
      return x != y;
    case CompareOp::lt:
      return x < y;
    case CompareOp::le:
      return x <= y;
    case CompareOp::gt:
      return x > y;
    case CompareOp::ge:
      return x >= y;
  }
  return false;
}

// Kinds `a op b` may produce when the operands may be of kinds `a` and `b`.
KindSet arith_kinds(ArithOp op, KindSet a, KindSet b);

// Throws ExprError at `column` when no pair of non-null kinds from `a` and `b` is accepted by `op`,
// i.e. when the operation fails for every input on which both operands are not null.
void check_arith_kinds(ArithOp op, KindSet a, KindSet b, int column);
void check_negate_kinds(KindSet a, int column);
// The same for the ordering operators (`==` and `!=` accept every pair): throws when the operands'
// non-null kinds have no pair `order` accepts, or when one operand can only be null.
void check_compare_kinds(CompareOp op, KindSet a, KindSet b, int column);

// Integer arithmetic with the language's rules; false when the result overflows.
inline bool int_arith(ArithOp op, std::int64_t x, std::int64_t y, Value& out) {
  std::int64_t r = 0;
  switch (op) {
    case ArithOp::add:
      if (__builtin_add_overflow(x, y, &r)) return false;
      break;
    case ArithOp::sub:
      if (__builtin_sub_overflow(x, y, &r)) return false;
      break;
    case ArithOp::mul:
      if (__builtin_mul_overflow(x, y, &r)) return false;
      break;
    case ArithOp::div:
      if (y == 0) {
        out = Value();
        return true;
      }
      if (y == -1) {
        if (__builtin_sub_overflow(std::int64_t{0}, x, &r)) return false;
        break;
      }
      r = x / y;
      break;
    case ArithOp::mod:
      if (y == 0) {
        out = Value();
        return true;
      }
      r = y == -1 ? 0 : x % y;
      break;
  }
  out = Value(r);
  return true;
}

}  // namespace cwf::expr
