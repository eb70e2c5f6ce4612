// Fuzzes the expression language: the input is an expression's source, compiled with the
// variables the product's actors declare, then evaluated against a fixed record and against
// null. Errors in the expression (ExprError) or in its evaluation are expected; anything else
// (a crash, undefined behaviour, a leak, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "runtime/expressions/expression.hpp"
#include "runtime/values/value.hpp"
#include "runtime/values/value_json.hpp"

namespace {

const cwf::ExprEnvironment& environment() {
  static const cwf::ExprEnvironment env{"window", "event", "broker", "set"};
  return env;
}

const cwf::Value& input() {
  static const cwf::Value value = cwf::parse_json(
      R"({"ts": 1700000000, "sensor": "boiler", "celsius": 31.5, "qty": 3, "tags": ["a", "b"],)"
      R"( "items": [{"sku": "x", "qty": 2}, {"sku": "y", "qty": -1}], "params": {"amount": 450,)"
      R"( "region": "north", "claim": null}, "ok": true, "big": 9223372036854775807})");
  return value;
}

const std::vector<cwf::Value>& variables() {
  static const std::vector<cwf::Value> vars = {
      cwf::Value::array({input(), cwf::parse_json(R"({"celsius": -4, "qty": 0})")}),  // window
      input(),                                                                        // event
      cwf::parse_json(R"({"name": "DBCL", "services": ["LogClaim"], "region": "north"})"),
      cwf::Value::array({1, 2.5, "three", nullptr}),  // set
  };
  return vars;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  try {
    cwf::Expression expression = cwf::Expression::compile(source, environment());
    for (const cwf::Value& value : {input(), cwf::Value()}) {
      try {
        cwf::Value result = expression.evaluate(value, variables());
        (void)result.to_json();
        (void)expression.matches(value, variables());
      } catch (const std::exception&) {
      }
    }
  } catch (const std::exception&) {
  }
  return 0;
}
