// A content-based filter: a conjunction of predicates over a publication's attributes (see
// predicate.hpp). Subscriptions and advertisements are both filters. The filter with no
// predicates matches every record.
//
// Covering and overlap are exact for every operator: per attribute, the predicates define a set
// of values (attribute_set.hpp), and a filter's publications are the records whose every
// constrained attribute lies in its set, the others being free. So F1 covers F2 iff F2 matches
// nothing, or every attribute F1 constrains is constrained by F2 to a subset; and F1 overlaps F2
// iff both match something and their sets intersect on every attribute both constrain.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "actors/pubsub/attribute_set.hpp"
#include "actors/pubsub/predicate.hpp"
#include "runtime/values/value.hpp"

namespace cwf::pubsub {

class Filter {
 public:
  Filter() = default;  // matches every record
  explicit Filter(std::vector<Predicate> predicates);

  // Reads `[[attribute, op, value], ...]` (a list of predicates; [] is the filter matching
  // everything). Throws FilterError naming the predicate (1-based) and what was expected.
  static Filter parse(const Value& spec);

  const std::vector<Predicate>& predicates() const { return predicates_; }
  // The attributes the filter constrains, sorted by name, with the values each may take.
  const std::vector<std::pair<std::string, AttributeSet>>& constraints() const {
    return constraints_;
  }

  // Whether a publication (a record; anything else matches nothing) satisfies every predicate.
  bool matches(const Value& publication) const;
  // The same, taking predicate `known` (an index into predicates()) as already checked.
  bool matches_except(const Value& publication, std::size_t known) const;
  // Whether some record matches (`[x, <, 1], [x, >, 2]` does not).
  bool satisfiable() const { return satisfiable_; }
  // Every publication that matches `other` matches this filter.
  bool covers(const Filter& other) const;
  // Some publication matches both.
  bool overlaps(const Filter& other) const;

  // `[[attribute, op, value], ...]`, the form parse reads.
  Value to_value() const;
  std::string to_string() const { return to_value().to_json(); }
  friend bool operator==(const Filter& a, const Filter& b) {
    return a.predicates_ == b.predicates_;
  }

 private:
  const AttributeSet* constraint(const std::string& attribute) const;

  std::vector<Predicate> predicates_;
  std::vector<std::pair<std::string, AttributeSet>> constraints_;
  bool satisfiable_ = true;
};

}  // namespace cwf::pubsub
