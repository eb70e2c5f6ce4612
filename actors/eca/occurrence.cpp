#include "actors/eca/occurrence.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace cwf::eca {

const Schema* occurrence_schema() {
  static const Schema* schema =
      Schema::intern({"type", "site", "id", "time", "service", "request", "instance", "broker",
                      "components", "params", "assigned"});
  return schema;
}

namespace {

// The parts of a primitive type name as views into `type` (parse_primitive_type); views, so that
// deriving the service of every occurrence made allocates nothing but the service value.
struct PrimitiveParts {
  std::string_view kind, service, outcome;
};
bool split_primitive_type(std::string_view type, PrimitiveParts& out) {
  auto open = type.find('(');
  if (open == std::string_view::npos || type.empty() || type.back() != ')') return false;
  std::string_view kind = type.substr(0, open);
  if (kind != "REQ" && kind != "RPL" && kind != "EXC" && kind != "TIME") return false;
  std::string_view inner = type.substr(open + 1, type.size() - open - 2);
  if (inner.empty() || inner.find_first_of("(),") != std::string_view::npos) return false;
  auto dot = inner.find('.');
  out.kind = kind;
  out.service = inner.substr(0, dot);
  out.outcome = dot == std::string_view::npos ? std::string_view() : inner.substr(dot + 1);
  return true;
}

}  // namespace

Value make_occurrence(OccurrenceSpec spec) {
  if (spec.service.is_null()) {
    PrimitiveParts primitive;
    if (split_primitive_type(spec.type, primitive) && primitive.kind != "TIME")
      spec.service = Value(primitive.service);
  }
  std::vector<Value> slots(kOccurrenceFieldCount);
  slots[kType] = Value(spec.type);
  slots[kSite] = Value(spec.site);
  slots[kId] = Value(spec.id);
  slots[kTime] = Value(static_cast<std::int64_t>(spec.time));
  slots[kService] = std::move(spec.service);
  slots[kRequest] = std::move(spec.request);
  slots[kInstance] = std::move(spec.instance);
  slots[kBroker] = std::move(spec.broker);
  slots[kComponents] = Value::array(std::move(spec.components));
  slots[kParams] = spec.params.is_null() ? empty_params() : spec.params;
  slots[kAssigned] = std::move(spec.assigned);
  return Value::record(occurrence_schema(), std::move(slots));
}

std::atomic<std::int64_t>& site_ids(std::string_view site) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<std::atomic<std::int64_t>>, std::less<>> counters;
  std::lock_guard lock(mutex);
  auto it = counters.find(site);
  if (it == counters.end())
    it = counters.emplace(std::string(site), std::make_unique<std::atomic<std::int64_t>>(1)).first;
  return *it->second;
}

const Value& empty_params() {
  static const Value empty = Value::record(Schema::intern({}), std::vector<Value>{});
  return empty;
}

Value make_composite_occurrence(const Value& type, const Value& site, std::int64_t id,
                                Timestamp time, const Value& instance, const Value& broker,
                                std::vector<Value>&& components) {
  std::vector<Value> slots(kOccurrenceFieldCount);
  slots[kType] = type;
  slots[kSite] = site;
  slots[kId] = Value(id);
  slots[kTime] = Value(static_cast<std::int64_t>(time));
  slots[kInstance] = instance;
  slots[kBroker] = broker;
  slots[kComponents] = Value::array(std::move(components));
  slots[kParams] = empty_params();
  return Value::record(occurrence_schema(), std::move(slots));
}

bool is_occurrence(const Value& value) {
  return value.is_record() && value.schema() == occurrence_schema();
}

const Value& field(const Value& occurrence, OccurrenceField f) {
  if (!is_occurrence(occurrence))
    throw std::invalid_argument("not an event occurrence: " + occurrence.to_json());
  return occurrence.slots()[static_cast<std::size_t>(f)];
}

std::string_view occurrence_type(const Value& occurrence) {
  return field(occurrence, kType).as_string();
}

Timestamp occurrence_time(const Value& occurrence) {
  return field(occurrence, kTime).as_int();
}

namespace {

// The kinds the rest of the library relies on (occurrence_time reads an int, occurrence_type a
// string, ...): a record read from JSON can match the occurrence schema key for key and still hold
// `"time": 1.5`, which would otherwise throw a TypeError far from where the record came in.
const char* kind_error(OccurrenceField f, const Value& v, bool null_allowed) {
  if (null_allowed && v.is_null()) return nullptr;
  switch (f) {
    case kType:
      return v.is_string() ? nullptr : "a string";
    case kSite:
      return v.is_string() ? nullptr : "a string";
    case kId:
      return v.is_int() ? nullptr : "an int";
    case kTime:
      return v.is_int() ? nullptr : "an int (nanoseconds)";
    case kService:
    case kBroker:
    case kAssigned:
      return v.is_null() || v.is_string() ? nullptr : "a string or null";
    case kRequest:
      return v.is_null() || v.is_string() || v.is_int() ? nullptr : "a string, an int or null";
    case kComponents:
      return v.is_array() ? nullptr : "an array of occurrences";
    case kParams:
      return v.is_record() ? nullptr : "a record";
    default:
      return nullptr;  // the instance may be any value: it is compared by its text
  }
}

[[noreturn]] void throw_kind(OccurrenceField f, const Value& v, const char* expected) {
  throw std::invalid_argument(
      "'" + std::string(occurrence_schema()->fields()[static_cast<std::size_t>(f)]) + "' must be " +
      expected + ", got " + v.to_json());
}

// True when an occurrence record holds the kinds its fields need, components included.
bool well_formed(const Value& occurrence) {
  auto slots = occurrence.slots();
  for (int f = 0; f < kOccurrenceFieldCount; ++f)
    if (kind_error(static_cast<OccurrenceField>(f), slots[static_cast<std::size_t>(f)], false))
      return false;
  for (const Value& c : slots[kComponents].as_array())
    if (!is_occurrence(c) || !well_formed(c)) return false;
  return true;
}

}  // namespace

Value to_occurrence(const Value& value, Timestamp event_time) {
  if (is_occurrence(value) && well_formed(value)) return value;
  const Value* type = value.is_record() ? value.field("type") : nullptr;
  if (!type || !type->is_string())
    throw std::invalid_argument(
        "expected an event occurrence (a record with a string 'type'), got " + value.to_json());
  // A missing or null field takes its default; a field of another kind is an error.
  auto get = [&](OccurrenceField f) {
    const Value* v = value.field(occurrence_schema()->fields()[static_cast<std::size_t>(f)]);
    if (!v) return Value();
    if (const char* expected = kind_error(f, *v, true)) throw_kind(f, *v, expected);
    return *v;
  };
  OccurrenceSpec spec;
  spec.type = std::string(type->as_string());
  Value site = get(kSite), id = get(kId), time = get(kTime), components = get(kComponents);
  spec.site = site.is_string() ? std::string(site.as_string()) : "";
  spec.id = id.is_int() ? id.as_int() : 0;
  spec.time = time.is_int() ? time.as_int() : event_time;
  spec.service = get(kService);
  spec.request = get(kRequest);
  spec.instance = get(kInstance);
  spec.broker = get(kBroker);
  if (components.is_array())
    for (const Value& c : components.as_array())
      spec.components.push_back(to_occurrence(c, event_time));
  spec.params = get(kParams);
  spec.assigned = get(kAssigned);
  return make_occurrence(std::move(spec));
}

Value with_field(const Value& occurrence, OccurrenceField f, Value value) {
  field(occurrence, f);  // checks the kind
  std::vector<Value> slots(occurrence.slots().begin(), occurrence.slots().end());
  slots[static_cast<std::size_t>(f)] = std::move(value);
  return Value::record(occurrence_schema(), std::move(slots));
}

bool parse_primitive_type(std::string_view type, PrimitiveType& out) {
  PrimitiveParts parts;
  if (!split_primitive_type(type, parts)) return false;
  out.kind = std::string(parts.kind);
  out.service = std::string(parts.service);
  out.outcome = std::string(parts.outcome);
  return true;
}

std::string primitive_type_name(std::string_view kind, std::string_view service,
                                std::string_view outcome) {
  std::string name(kind);
  name += '(';
  name += service;
  if (!outcome.empty()) {
    name += '.';
    name += outcome;
  }
  name += ')';
  return name;
}

}  // namespace cwf::eca
