#include "actors/pubsub/attribute_set.hpp"

namespace cwf::pubsub {

namespace {

using NumberKind = NumberSet::UpperKind;
using StringKind = StringSet::UpperKind;

NumberSet numbers_at_most(double hi) {
  return NumberSet::of(NumberDomain::bottom(), hi, NumberKind::closed);
}
NumberSet numbers_at_least(double lo) {
  return NumberSet::of(lo, NumberDomain::top(), NumberKind::closed);
}
NumberSet numbers_below(double hi) {
  auto before = NumberDomain::predecessor(hi);
  return before ? numbers_at_most(*before) : NumberSet::none();
}
NumberSet numbers_above(double lo) {
  auto after = NumberDomain::successor(lo);
  return after ? numbers_at_least(*after) : NumberSet::none();
}

StringSet strings_below(const std::string& hi, StringKind kind) {
  return StringSet::of(StringDomain::bottom(), hi, kind);
}
StringSet strings_from(const std::string& lo) {
  return StringSet::of(lo, {}, StringKind::unbounded);
}

// The strings that start with `prefix`: [prefix, the least string after all of them).
StringSet strings_with_prefix(std::string prefix) {
  std::string end = prefix;
  while (!end.empty() && static_cast<unsigned char>(end.back()) == 0xFF)
    end.pop_back();
  if (end.empty()) return strings_from(prefix);
  end.back() = static_cast<char>(static_cast<unsigned char>(end.back()) + 1);
  return StringSet::of(std::move(prefix), std::move(end), StringKind::open);
}

}  // namespace

AttributeSet AttributeSet::present() {
  AttributeSet s;
  s.booleans_ = 3;
  s.numbers_ = NumberSet::all();
  s.strings_ = StringSet::all();
  s.composites_ = true;
  return s;
}

AttributeSet AttributeSet::of(const Predicate& p) {
  if (p.op == Operator::exists) return present();
  AttributeSet s;
  const Value& v = p.operand;
  if (v.is_bool()) {
    std::uint8_t bit = v.as_bool() ? 2 : 1;
    s.booleans_ = p.op == Operator::equal ? bit : static_cast<std::uint8_t>(3 & ~bit);
    return s;
  }
  if (v.is_number()) {
    double x = v.as_double();
    switch (p.op) {
      case Operator::equal:
        s.numbers_ = NumberSet::of(x, x, NumberKind::closed);
        break;
      case Operator::not_equal:
        s.numbers_ = NumberSet::unite(numbers_below(x), numbers_above(x));
        break;
      case Operator::less:
        s.numbers_ = numbers_below(x);
        break;
      case Operator::less_equal:
        s.numbers_ = numbers_at_most(x);
        break;
      case Operator::greater:
        s.numbers_ = numbers_above(x);
        break;
      case Operator::greater_equal:
        s.numbers_ = numbers_at_least(x);
        break;
      case Operator::between:
        s.numbers_ = NumberSet::of(x, p.upper.as_double(), NumberKind::closed);
        break;
      default:
        break;
    }
    return s;
  }
  std::string x(v.as_string());
  switch (p.op) {
    case Operator::equal:
      s.strings_ = StringSet::of(x, x, StringKind::closed);
      break;
    case Operator::not_equal:
      s.strings_ = StringSet::unite(strings_below(x, StringKind::open), strings_from(x + '\0'));
      break;
    case Operator::less:
      s.strings_ = strings_below(x, StringKind::open);
      break;
    case Operator::less_equal:
      s.strings_ = strings_below(x, StringKind::closed);
      break;
    case Operator::greater:
      s.strings_ = strings_from(x + '\0');
      break;
    case Operator::greater_equal:
      s.strings_ = strings_from(x);
      break;
    case Operator::between:
      s.strings_ = StringSet::of(x, std::string(p.upper.as_string()), StringKind::closed);
      break;
    case Operator::prefix:
      s.strings_ = strings_with_prefix(x);
      break;
    default:
      break;
  }
  return s;
}

AttributeSet AttributeSet::intersect(const AttributeSet& other) const {
  AttributeSet s;
  s.booleans_ = booleans_ & other.booleans_;
  s.numbers_ = numbers_.intersect(other.numbers_);
  s.strings_ = strings_.intersect(other.strings_);
  s.composites_ = composites_ && other.composites_;
  return s;
}

bool AttributeSet::empty() const {
  return booleans_ == 0 && numbers_.empty() && strings_.empty() && !composites_;
}

bool AttributeSet::contains(const AttributeSet& other) const {
  return (other.booleans_ & ~booleans_) == 0 && numbers_.contains(other.numbers_) &&
         strings_.contains(other.strings_) && (composites_ || !other.composites_);
}

bool AttributeSet::contains(const Value* value) const {
  if (!value || value->is_null()) return false;
  if (value->is_bool()) return booleans_ & (value->as_bool() ? 2 : 1);
  if (value->is_number()) return numbers_.contains(value->as_double());
  if (value->is_string()) return strings_.contains(std::string(value->as_string()));
  return composites_;
}

}  // namespace cwf::pubsub
