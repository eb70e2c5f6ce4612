// The values one attribute may take under the predicates a filter puts on it, split by kind:
// booleans, numbers and strings as exact sets, arrays and records only as "any" (nothing but
// `exists` admits them). Absent and null attributes are never in the set. Covering and overlap of
// filters reduce to containment and intersection of these sets, attribute by attribute.
#pragma once

#include <cstdint>

#include "actors/pubsub/interval_set.hpp"
#include "actors/pubsub/predicate.hpp"

namespace cwf::pubsub {

class AttributeSet {
 public:
  // Every present, non-null value.
  static AttributeSet present();
  // The values that satisfy `predicate`.
  static AttributeSet of(const Predicate& predicate);

  AttributeSet intersect(const AttributeSet& other) const;
  bool empty() const;
  bool contains(const AttributeSet& other) const;
  bool overlaps(const AttributeSet& other) const { return !intersect(other).empty(); }
  // Whether a value (nullptr: absent) is in the set; agrees with Predicate::holds.
  bool contains(const Value* value) const;

  const NumberSet& numbers() const { return numbers_; }
  const StringSet& strings() const { return strings_; }

 private:
  std::uint8_t booleans_ = 0;  // bit 0: false, bit 1: true
  NumberSet numbers_;
  StringSet strings_;
  bool composites_ = false;  // arrays and records
};

}  // namespace cwf::pubsub
