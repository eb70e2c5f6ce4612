#include "actors/gsm/wfu_messages.hpp"

#include <string>
#include <vector>

namespace cwf::gsm::wfu {

const Schema* message_schema() {
  static const Schema* schema = Schema::intern({"m", "u", "e", "t", "x", "v", "p", "ver"});
  return schema;
}

Value make_message(std::string_view kind, int unit, int event, std::int64_t time,
                   std::int64_t instance, const Value& value, std::int64_t previous,
                   const Value& versions) {
  std::vector<Value> slots(kFields);
  slots[m] = Value(kind);
  if (unit >= 0) slots[u] = Value(unit);
  if (event >= 0) slots[e] = Value(event);
  slots[t] = Value(time);
  slots[x] = Value(instance);
  slots[v] = value;
  slots[p] = Value(previous);
  slots[ver] = versions;
  return Value::record(message_schema(), std::move(slots));
}

std::string_view kind_of(const Value& message) {
  return message.slots()[m].as_string();
}

std::int64_t int_field(const Value& message, Field f) {
  return message.slots()[f].as_int();
}

const Value& field(const Value& message, Field f) {
  return message.slots()[f];
}

pubsub::Filter message_filter(std::string_view kind, int unit, int event) {
  std::vector<pubsub::Predicate> predicates;
  predicates.push_back({"m", pubsub::Operator::equal, Value(kind), Value()});
  if (unit >= 0) predicates.push_back({"u", pubsub::Operator::equal, Value(unit), Value()});
  if (event >= 0) predicates.push_back({"e", pubsub::Operator::equal, Value(event), Value()});
  return pubsub::Filter(std::move(predicates));
}

}  // namespace cwf::gsm::wfu
