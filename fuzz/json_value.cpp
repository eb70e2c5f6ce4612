// Fuzzes JSON values (the JSON-lines sources, NATS payloads, `--set` values): the input is one
// JSON document. What parses must render back to JSON that parses to the same value, and the
// rendering of that must be the same text (a value survives a trip through a file).
// JsonError for malformed input is expected; a crash, undefined behaviour, a leak, a hang or a
// value that does not survive the trip is a finding.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "runtime/values/value.hpp"
#include "runtime/values/value_json.hpp"

namespace {

// JSON cannot write an infinity as a number (it is written as the string "Infinity", which reads
// back as a string). The parser rejects numbers beyond
// the range of a double, so none should appear; should one ever, the round trip is not the
// check that finds it.
bool holds_infinity(const cwf::Value& value) {
  if (value.is_double()) return !std::isfinite(value.as_double());
  if (value.is_array()) return std::ranges::any_of(value.as_array(), holds_infinity);
  if (value.is_record()) return std::ranges::any_of(value.slots(), holds_infinity);
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static cwf::JsonParser parser;  // reused, as a JSON-lines source does (schema cache included)
  std::string_view text(reinterpret_cast<const char*>(data), size);
  cwf::Value value;
  try {
    value = parser.parse(text);
  } catch (const cwf::JsonError&) {
    return 0;
  }
  if (holds_infinity(value)) return 0;
  const std::string rendered = value.to_json();
  cwf::Value again;
  try {
    again = parser.parse(rendered);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "the rendering %s does not parse: %s\n", rendered.c_str(), e.what());
    std::abort();
  }
  if (again.to_json() != rendered || !(again == value)) {
    std::fprintf(stderr, "the value changed in a round trip: %s -> %s\n", rendered.c_str(),
                 again.to_json().c_str());
    std::abort();
  }
  return 0;
}
