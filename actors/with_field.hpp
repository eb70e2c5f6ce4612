// A record with one field set: replaced where the record has it, appended otherwise. For actors
// that annotate the records passing through them (a tag, a match) and keep the rest as it came.
#pragma once

#include <string_view>

#include "runtime/values/value.hpp"

namespace cwf::actors {

// `record` must be a record. The schema with the appended field is interned once per input
// schema and name (per thread), so a stream of records of one shape costs a lookup each.
Value with_field(Value record, std::string_view name, Value value);

}  // namespace cwf::actors
