// Finds the filters a publication matches without testing every filter.
//
// Each filter is filed under one *access predicate*, the one most likely to be selective: an
// equality (hash of attribute value), else a string prefix (hash of the prefixes, probed at the
// lengths in use), else a number range (stabbing tree), else nothing (the few filters with only
// `!=`, `exists` or string ranges are tried on every publication). A publication looks up each of
// its attributes in those structures; the candidates found are then checked against their whole
// filter. Every filter is filed exactly once, so a candidate is found at most once.
//
// Not thread-safe: one broker owns its index.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "actors/pubsub/filter.hpp"
#include "actors/pubsub/number_range_index.hpp"

namespace cwf::pubsub {

class MatchingIndex {
 public:
  using Id = std::uint32_t;

  // `id` must not be in the index.
  void add(Id id, Filter filter);
  // No effect when `id` is not in the index.
  void remove(Id id);
  bool contains(Id id) const { return slot_of_.count(id) != 0; }
  std::size_t size() const { return slot_of_.size(); }
  const Filter& filter(Id id) const;

  // Appends the ids of the filters `publication` matches (each once, in no particular order).
  void match(const Value& publication, std::vector<Id>& out) const;

 private:
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Slots = std::vector<std::uint32_t>;
  struct AttributeIndex {
    std::unordered_map<Value, Slots, ValueHash> equal;
    std::unordered_map<std::string, Slots, StringHash, std::equal_to<>> prefixes;
    std::map<std::size_t, std::size_t> prefix_lengths;  // length -> prefixes of that length
    NumberRangeIndex ranges;
  };
  enum class Access : std::uint8_t { equal, prefix, range, none };
  struct Entry {
    Id id;
    Filter filter;
    Access access;
    std::string attribute;             // of the access predicate
    Value key;                         // equal: the value; prefix: the prefix
    std::size_t access_predicate = 0;  // its index in the filter: found means it holds
  };

  AttributeIndex& attribute_index(const std::string& name);
  const AttributeIndex* find_attribute(std::string_view name) const;
  void candidates(const AttributeIndex& index, const Value& value, std::vector<Id>& out) const;
  // Attribute indexes by the slots of a record schema, so a publication's attributes are not
  // hashed by name every time; rebuilt when an attribute is added.
  const std::vector<const AttributeIndex*>& by_schema(const Schema* schema) const;

  std::vector<Entry> entries_;
  std::vector<std::uint32_t> free_slots_;
  std::unordered_map<Id, std::uint32_t> slot_of_;
  std::unordered_map<std::string, std::unique_ptr<AttributeIndex>, StringHash, std::equal_to<>>
      attributes_;
  Slots unindexed_;
  mutable std::unordered_map<const Schema*, std::vector<const AttributeIndex*>> schema_cache_;
};

}  // namespace cwf::pubsub
