// A record never carries two fields of one name: its JSON would be an object with a repeated
// key, which readers resolve differently (the first, the last, an error).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/values/value.hpp"

namespace cwf {
namespace {

TEST(RecordFields, ASchemaWithARepeatedNameIsRefused) {
  std::vector<std::string> names{"group", "count", "count"};
  try {
    Schema::intern(names);
    FAIL() << "interned a schema with two fields named count";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "a record cannot have two fields named 'count'");
  }
  EXPECT_THROW(Schema::intern({"a", "b", "c", "b"}), std::invalid_argument);
}

TEST(RecordFields, TheRecordBuilderRefusesARepeatedName) {
  EXPECT_THROW(Value::record({{"count", 3}, {"count", 3}}), std::invalid_argument);
  // Distinct names are fine, in any order and however many.
  EXPECT_EQ(Value::record({{"b", 1}, {"a", 2}}).to_json(), R"({"b":1,"a":2})");
  EXPECT_EQ(Schema::intern({"x", "y"}), Schema::intern({"x", "y"}));
}

}  // namespace
}  // namespace cwf
