#include "actors/with_field.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cwf::actors {

namespace {

// The schema `schema` extended by `name` (interned schemas live as long as the process).
const Schema* extended(const Schema* schema, std::string_view name) {
  thread_local std::map<std::pair<const Schema*, std::string>, const Schema*, std::less<>> cache;
  const auto key = std::make_pair(schema, std::string(name));
  const auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  std::vector<std::string> fields(schema->fields().begin(), schema->fields().end());
  fields.emplace_back(name);
  const Schema* result = Schema::intern(fields);
  cache.emplace(key, result);
  return result;
}

}  // namespace

Value with_field(Value record, std::string_view name, Value value) {
  const Schema* schema = record.schema();
  const int slot = schema->slot(name);
  if (slot >= 0) {
    record.mutable_slots()[static_cast<std::size_t>(slot)] = std::move(value);
    return record;
  }
  std::vector<Value> slots(record.slots().begin(), record.slots().end());
  slots.push_back(std::move(value));
  return Value::record(extended(schema, name), std::move(slots));
}

}  // namespace cwf::actors
