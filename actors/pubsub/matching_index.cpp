#include "actors/pubsub/matching_index.hpp"

#include <algorithm>
#include <stdexcept>

namespace cwf::pubsub {

namespace {

void erase_one(std::vector<std::uint32_t>& slots, std::uint32_t slot) {
  auto at = std::find(slots.begin(), slots.end(), slot);
  if (at == slots.end()) return;
  *at = slots.back();
  slots.pop_back();
}

// Lower is more selective. Number ranges bounded on both sides before one-sided ones.
int access_rank(const Predicate& p) {
  switch (p.op) {
    case Operator::equal:
      return 0;
    case Operator::prefix:
      return 1;
    case Operator::between:
      return p.operand.is_number() ? 2 : 9;
    case Operator::less:
    case Operator::less_equal:
    case Operator::greater:
    case Operator::greater_equal:
      return p.operand.is_number() ? 3 : 9;
    default:
      return 9;
  }
}

}  // namespace

MatchingIndex::AttributeIndex& MatchingIndex::attribute_index(const std::string& name) {
  auto at = attributes_.find(name);
  if (at != attributes_.end()) return *at->second;
  schema_cache_.clear();  // a schema may now have an indexed attribute it did not have
  return *attributes_.emplace(name, std::make_unique<AttributeIndex>()).first->second;
}

const MatchingIndex::AttributeIndex* MatchingIndex::find_attribute(std::string_view name) const {
  auto at = attributes_.find(name);
  return at == attributes_.end() ? nullptr : at->second.get();
}

const Filter& MatchingIndex::filter(Id id) const {
  auto at = slot_of_.find(id);
  if (at == slot_of_.end()) throw std::out_of_range("no filter with this id in the index");
  return entries_[at->second].filter;
}

void MatchingIndex::add(Id id, Filter filter) {
  if (slot_of_.count(id)) throw std::invalid_argument("id already in the matching index");
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  slot_of_[id] = slot;
  Entry& e = entries_[slot];
  e = Entry{id, std::move(filter), Access::none, {}, {}};

  const Predicate* best = nullptr;
  int best_rank = 9;
  for (const Predicate& p : e.filter.predicates())
    if (int rank = access_rank(p); rank < best_rank) {
      best = &p;
      best_rank = rank;
    }
  if (!best) {
    unindexed_.push_back(slot);
    return;
  }
  e.attribute = best->attribute;
  e.access_predicate = static_cast<std::size_t>(best - e.filter.predicates().data());
  AttributeIndex& index = attribute_index(e.attribute);
  switch (best->op) {
    case Operator::equal:
      e.access = Access::equal;
      e.key = best->operand;
      index.equal[e.key].push_back(slot);
      break;
    case Operator::prefix: {
      e.access = Access::prefix;
      e.key = best->operand;
      std::string prefix(e.key.as_string());
      auto& slots = index.prefixes[prefix];
      if (slots.empty()) ++index.prefix_lengths[prefix.size()];
      slots.push_back(slot);
      break;
    }
    default: {
      e.access = Access::range;
      // A range predicate on numbers is one interval.
      AttributeSet values = AttributeSet::of(*best);
      const auto& interval = values.numbers().intervals();
      if (interval.empty()) {  // matches nothing, e.g. `< -inf`: never a candidate
        e.access = Access::none;
        e.attribute.clear();
        return;
      }
      index.ranges.add(interval.front().lo, interval.front().hi, slot);
      break;
    }
  }
}

void MatchingIndex::remove(Id id) {
  auto at = slot_of_.find(id);
  if (at == slot_of_.end()) return;
  std::uint32_t slot = at->second;
  slot_of_.erase(at);
  Entry& e = entries_[slot];
  if (e.attribute.empty()) {
    erase_one(unindexed_, slot);
  } else {
    AttributeIndex& index = *attributes_.find(e.attribute)->second;
    switch (e.access) {
      case Access::equal: {
        auto bucket = index.equal.find(e.key);
        erase_one(bucket->second, slot);
        if (bucket->second.empty()) index.equal.erase(bucket);
        break;
      }
      case Access::prefix: {
        auto bucket = index.prefixes.find(e.key.as_string());
        erase_one(bucket->second, slot);
        if (bucket->second.empty()) {
          auto length = index.prefix_lengths.find(bucket->first.size());
          if (--length->second == 0) index.prefix_lengths.erase(length);
          index.prefixes.erase(bucket);
        }
        break;
      }
      case Access::range:
        index.ranges.remove(slot);
        break;
      case Access::none:
        break;
    }
  }
  e = Entry{};
  free_slots_.push_back(slot);
}

void MatchingIndex::candidates(const AttributeIndex& index, const Value& value,
                               std::vector<Id>& out) const {
  if (value.is_null()) return;
  if (!index.equal.empty()) {
    auto bucket = index.equal.find(value);
    if (bucket != index.equal.end())
      out.insert(out.end(), bucket->second.begin(), bucket->second.end());
  }
  if (!index.prefixes.empty() && value.is_string()) {
    std::string_view s = value.as_string();
    for (auto [length, count] : index.prefix_lengths) {
      if (length > s.size()) break;
      auto bucket = index.prefixes.find(s.substr(0, length));
      if (bucket != index.prefixes.end())
        out.insert(out.end(), bucket->second.begin(), bucket->second.end());
    }
  }
  if (!index.ranges.empty() && value.is_number()) index.ranges.stab(value.as_double(), out);
}

const std::vector<const MatchingIndex::AttributeIndex*>& MatchingIndex::by_schema(
    const Schema* schema) const {
  auto at = schema_cache_.find(schema);
  if (at != schema_cache_.end()) return at->second;
  std::vector<const AttributeIndex*> indexes;
  for (const std::string& field : schema->fields())
    indexes.push_back(find_attribute(field));
  return schema_cache_.emplace(schema, std::move(indexes)).first->second;
}

void MatchingIndex::match(const Value& publication, std::vector<Id>& out) const {
  if (!publication.is_record()) return;
  // Candidate slots are gathered in `out` itself, then replaced by the ids that verify.
  std::size_t begin = out.size();
  const auto& indexes = by_schema(publication.schema());
  auto values = publication.slots();
  for (std::size_t i = 0; i < indexes.size(); ++i)
    if (indexes[i]) candidates(*indexes[i], values[i], out);
  std::size_t indexed_end = out.size();
  out.insert(out.end(), unindexed_.begin(), unindexed_.end());
  std::size_t end = out.size();
  std::size_t kept = begin;
  for (std::size_t i = begin; i < end; ++i) {
    const Entry& e = entries_[out[i]];
    bool matches = i < indexed_end ? e.filter.matches_except(publication, e.access_predicate)
                                   : e.filter.matches(publication);
    if (matches) out[kept++] = e.id;
  }
  out.resize(kept);
}

}  // namespace cwf::pubsub
