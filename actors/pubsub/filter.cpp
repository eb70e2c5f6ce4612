#include "actors/pubsub/filter.hpp"

#include <algorithm>

namespace cwf::pubsub {

Filter::Filter(std::vector<Predicate> predicates) : predicates_(std::move(predicates)) {
  for (const Predicate& p : predicates_) {
    auto at = std::lower_bound(
        constraints_.begin(), constraints_.end(), p.attribute,
        [](const auto& entry, const std::string& name) { return entry.first < name; });
    if (at == constraints_.end() || at->first != p.attribute)
      at = constraints_.insert(at, {p.attribute, AttributeSet::present()});
    at->second = at->second.intersect(AttributeSet::of(p));
  }
  for (const auto& [name, values] : constraints_)
    if (values.empty()) satisfiable_ = false;
}

Filter Filter::parse(const Value& spec) {
  if (!spec.is_array())
    throw FilterError(
        "expected a filter, a list of predicates [[attribute, operator, value], ...], got " +
        spec.to_json());
  std::vector<Predicate> predicates;
  auto items = spec.as_array();
  for (std::size_t i = 0; i < items.size(); ++i) {
    try {
      predicates.push_back(Predicate::parse(items[i]));
    } catch (const FilterError& e) {
      throw FilterError("predicate " + std::to_string(i + 1) + " " + e.what());
    }
  }
  return Filter(std::move(predicates));
}

bool Filter::matches(const Value& publication) const {
  if (!publication.is_record()) return false;
  for (const Predicate& p : predicates_)
    if (!p.holds(publication.field(p.attribute))) return false;
  return true;
}

bool Filter::matches_except(const Value& publication, std::size_t known) const {
  if (!publication.is_record()) return false;
  for (std::size_t i = 0; i < predicates_.size(); ++i)
    if (i != known && !predicates_[i].holds(publication.field(predicates_[i].attribute)))
      return false;
  return true;
}

const AttributeSet* Filter::constraint(const std::string& attribute) const {
  auto at = std::lower_bound(
      constraints_.begin(), constraints_.end(), attribute,
      [](const auto& entry, const std::string& name) { return entry.first < name; });
  return at != constraints_.end() && at->first == attribute ? &at->second : nullptr;
}

bool Filter::covers(const Filter& other) const {
  if (!other.satisfiable_) return true;
  if (!satisfiable_) return false;
  for (const auto& [name, values] : constraints_) {
    const AttributeSet* narrower = other.constraint(name);
    // Unconstrained in `other`: it admits records without the attribute, which we never match.
    if (!narrower || !values.contains(*narrower)) return false;
  }
  return true;
}

bool Filter::overlaps(const Filter& other) const {
  if (!satisfiable_ || !other.satisfiable_) return false;
  for (const auto& [name, values] : constraints_)
    if (const AttributeSet* theirs = other.constraint(name); theirs && !values.overlaps(*theirs))
      return false;
  return true;
}

Value Filter::to_value() const {
  std::vector<Value> items;
  for (const Predicate& p : predicates_)
    items.push_back(p.to_value());
  return Value::array(std::move(items));
}

}  // namespace cwf::pubsub
