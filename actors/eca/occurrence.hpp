// Event occurrences (EVE §5.1) as records, so that they travel between actors as ordinary tokens,
// are read by expressions (`/params/amount`, `/components[0]/type`) and are written to the event
// history as JSON lines.
//
// Fields, in this order: type, site, id (unique per site), time (ns), service, request (request
// id), instance (workflow instance id), broker (the raising broker), components (the component
// occurrences of a composite, else []), params (typed parameters, a record), assigned (the broker
// a task-assignment rule notified of a request; null otherwise).
//
// Primitive type names: `REQ(Service)`, `RPL(Service.Outcome)`, `EXC(Service.Exception)` for
// services and workflows alike, and `TIME(name)` for time events. Composite types are the
// canonical text of their event expression (event_expression.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/time/clock.hpp"
#include "runtime/values/value.hpp"

namespace cwf::eca {

// Slots of the occurrence schema.
enum OccurrenceField : int {
  kType,
  kSite,
  kId,
  kTime,
  kService,
  kRequest,
  kInstance,
  kBroker,
  kComponents,
  kParams,
  kAssigned,
  kOccurrenceFieldCount
};

const Schema* occurrence_schema();

struct OccurrenceSpec {
  std::string type;
  std::string site;
  std::int64_t id = 0;
  Timestamp time = 0;
  Value service;   // null: derived from a primitive type
  Value request;   // null unless a request/reply/exception of a request
  Value instance;  // workflow instance id
  Value broker;
  std::vector<Value> components;
  Value params;  // null becomes {}
  Value assigned;
};

Value make_occurrence(OccurrenceSpec spec);

// A composite occurrence from values a detector keeps ready (no service, request, params or
// assignment): the per-detection path, which allocates only the record and its components.
Value make_composite_occurrence(const Value& type, const Value& site, std::int64_t id,
                                Timestamp time, const Value& instance, const Value& broker,
                                std::vector<Value>&& components);

// The occurrence ids of a site: one counter per site name for the whole process, shared by every
// actor that raises occurrences there, so that ids are unique per site (§5.1). The reference
// stays valid for the life of the process.
std::atomic<std::int64_t>& site_ids(std::string_view site);
inline std::int64_t next_occurrence_id(std::atomic<std::int64_t>& ids) {
  return ids.fetch_add(1, std::memory_order_relaxed);
}

// The empty parameter record, shared.
const Value& empty_params();

// Read access; each throws std::invalid_argument when `occurrence` is not an occurrence record.
bool is_occurrence(const Value& value);
const Value& field(const Value& occurrence, OccurrenceField f);
std::string_view occurrence_type(const Value& occurrence);
Timestamp occurrence_time(const Value& occurrence);

// `value` as an occurrence: an occurrence record as it is, or any record with a string `type`
// (e.g. read back from JSON) with the fields it has; `time` defaults to `event_time`. Throws
// std::invalid_argument for anything else, and for a field of the wrong kind (`"time": 1.5`,
// `"type": 5`, a non-record `params`), so that later reads of the fields cannot fail.
Value to_occurrence(const Value& value, Timestamp event_time);

// The occurrence with one field replaced.
Value with_field(const Value& occurrence, OccurrenceField f, Value value);

// The parts of a primitive type name: kind REQ/RPL/EXC/TIME, service (or time event name),
// outcome (after the '.', empty for REQ and TIME). False when `type` is not primitive.
struct PrimitiveType {
  std::string kind;
  std::string service;
  std::string outcome;
};
bool parse_primitive_type(std::string_view type, PrimitiveType& out);
std::string primitive_type_name(std::string_view kind, std::string_view service,
                                std::string_view outcome = {});

}  // namespace cwf::eca
