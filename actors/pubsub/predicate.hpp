// One predicate of a content-based filter: `[attribute, operator, operand...]`, e.g.
// `[price, "<", 10]`, `[symbol, prefix, "AB"]`, `[qty, between, 1, 5]`, `[note, exists]`.
//
// A predicate compares the publication's attribute with the engine's Value order (ints and doubles
// compare numerically, strings byte by byte) and holds only when the attribute is present, not
// null, and of the operand's kind: `[x, "!=", 5]` does not hold for x = "a" nor for a record
// without x. `exists` holds for any present, non-null value.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "runtime/values/value.hpp"

namespace cwf::pubsub {

enum class Operator {
  equal,
  not_equal,
  less,
  less_equal,
  greater,
  greater_equal,
  prefix,
  exists,
  between
};

// The canonical spelling ("=", "!=", "<", "<=", ">", ">=", "prefix", "exists", "between").
std::string_view operator_name(Operator op);

// A filter, predicate or operation that is not well formed; the message says what was expected.
class FilterError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Predicate {
  std::string attribute;
  Operator op = Operator::exists;
  Value operand;  // null for exists
  Value upper;    // between only: the inclusive upper bound (operand is the lower)

  // Reads `[attribute, op, operand...]`; throws FilterError naming what is wrong.
  static Predicate parse(const Value& spec);
  // Whether the attribute's value (nullptr when absent) satisfies the predicate.
  bool holds(const Value* value) const;
  // `[attribute, op, operand...]`, the form parse reads.
  Value to_value() const;
  friend bool operator==(const Predicate&, const Predicate&) = default;
};

}  // namespace cwf::pubsub
