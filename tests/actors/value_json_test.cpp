#include "runtime/values/value_json.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace cwf {
namespace {

std::string roundtrip(std::string_view text) {
  return parse_json(text).to_json();
}

std::string error_of(std::string_view text) {
  try {
    parse_json(text);
  } catch (const JsonError& e) {
    return e.what();
  }
  return "";
}

TEST(ValueJson, Scalars) {
  EXPECT_EQ(parse_json("null"), Value());
  EXPECT_EQ(parse_json("true"), Value(true));
  EXPECT_EQ(parse_json(" false "), Value(false));
  EXPECT_TRUE(parse_json("42").is_int());
  EXPECT_EQ(parse_json("-42").as_int(), -42);
  EXPECT_TRUE(parse_json("4.5").is_double());
  EXPECT_EQ(parse_json("4.5").as_double(), 4.5);
  EXPECT_EQ(parse_json("1e3").as_double(), 1000.0);
  EXPECT_TRUE(parse_json("1E-2").is_double());
  EXPECT_EQ(parse_json("9223372036854775807").as_int(), INT64_MAX);
  // Beyond 64 bits an integer needs a fraction or an exponent to be read as a double.
  EXPECT_TRUE(parse_json("92233720368547758070.0").is_double());
  EXPECT_TRUE(parse_json("9.2233720368547758070e19").is_double());
  EXPECT_EQ(parse_json("\"hi\"").as_string(), "hi");
}

TEST(ValueJson, NumbersMatchStrtod) {
  for (const char* text : {"0.1", "-0.5", "123.456e-5", "1e22", "1e23", "-2.5E+3", "0.000001",
                           "1.7976931348623157e308", "3.14159265358979323846", "9007199254740993.0",
                           "4.9e-324", "1e-400", "-1e-400", "0.30000000000000004",
                           "123456789012345678901234567890.0", "5e-1", "100e-2"}) {
    SCOPED_TRACE(text);
    Value v = parse_json(text);
    ASSERT_TRUE(v.is_double());
    EXPECT_EQ(v.as_double(), std::strtod(text, nullptr));
  }
  for (const char* text : {"0", "-0", "7", "-123456789012345678", "123456789012345678",
                           "9223372036854775807", "-9223372036854775808"}) {
    SCOPED_TRACE(text);
    Value v = parse_json(text);
    ASSERT_TRUE(v.is_int());
    EXPECT_EQ(v.as_int(), std::strtoll(text, nullptr, 10));
  }
}

TEST(ValueJson, StringEscapes) {
  EXPECT_EQ(parse_json(R"("a\"b\\c\/d\n\t")").as_string(), "a\"b\\c/d\n\t");
  EXPECT_EQ(parse_json(R"("\u00e9\u20ac")").as_string(), "\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(parse_json(R"("\ud83d\ude00")").as_string(), "\xF0\x9F\x98\x80");
  EXPECT_EQ(parse_json(R"("\ud83d")").as_string(), "\xEF\xBF\xBD");  // lone surrogate
  EXPECT_EQ(parse_json("\"caf\xC3\xA9 long enough to be on the heap\"").as_string(),
            "caf\xC3\xA9 long enough to be on the heap");
}

TEST(ValueJson, ObjectsAndArraysNest) {
  Value v = parse_json(R"({"id": 7, "tags": ["a", "b"], "pos": {"x": 1.5, "y": -2}, "e": {}})");
  ASSERT_TRUE(v.is_record());
  EXPECT_EQ(v.to_json(), R"({"id":7,"tags":["a","b"],"pos":{"x":1.5,"y":-2},"e":{}})");
  EXPECT_EQ(v.field("pos")->field("y")->as_int(), -2);
  EXPECT_EQ(roundtrip("[]"), "[]");
  EXPECT_EQ(roundtrip("[[1,[2,[3]]],{\"a\":[{}]}]"), "[[1,[2,[3]]],{\"a\":[{}]}]");
}

TEST(ValueJson, ObjectsWithTheSameKeysShareOneSchema) {
  JsonParser parser;
  Value a = parser.parse(R"({"x": 1, "y": 2})");
  Value b = parser.parse(R"({"x": "s", "y": null})");
  Value c = parser.parse(R"({"y": 1, "x": 2})");
  EXPECT_EQ(a.schema(), b.schema());
  EXPECT_NE(a.schema(), c.schema());
  EXPECT_EQ(a.schema(), Schema::intern({"x", "y"}));
}

TEST(ValueJson, ARepeatedKeyKeepsItsLastValue) {
  EXPECT_EQ(roundtrip(R"({"a": 1, "b": 2, "a": 3})"), R"({"a":3,"b":2})");
}

TEST(ValueJson, ErrorsNameTheColumn) {
  EXPECT_EQ(error_of(""), "column 1: unexpected end of input");
  EXPECT_EQ(error_of("{\"a\" 1}"), "column 6: expected ':' but found '1'");
  EXPECT_EQ(error_of("{\"a\": 1,}"), "column 9: expected a key string but found '}'");
  EXPECT_EQ(error_of("[1 2]"), "column 4: expected ',' or ']' but found '2'");
  EXPECT_EQ(error_of("{\"a\": tru}"), "column 7: invalid literal (expected true)");
  EXPECT_EQ(error_of("\"abc"), "column 1: unterminated string");
  EXPECT_EQ(error_of("01"), "column 2: unexpected '1' after the JSON value");
  EXPECT_EQ(error_of("1."), "column 3: invalid number: digits expected after '.'");
  EXPECT_EQ(error_of("\"a\\qb\""), "column 3: invalid escape '\\q'");
  EXPECT_EQ(error_of("{} x"), "column 4: unexpected 'x' after the JSON value");
  EXPECT_EQ(error_of(std::string(300, '[')), "column 257: nesting deeper than 256");
}

TEST(ValueJson, NumbersOutOfRangeAreErrorsNotNullOrRounded) {
  // A double overflow would become infinity, which is written back as the string "Infinity".
  EXPECT_EQ(error_of("1e400"), "column 1: number out of the range of a double (about 1.8e308)");
  EXPECT_EQ(error_of(R"({"celsius": -1e400})"),
            "column 13: number out of the range of a double (about 1.8e308)");
  EXPECT_EQ(error_of("[1, 2e308]"),
            "column 5: number out of the range of a double (about 1.8e308)");
  // An integer beyond 64 bits would silently lose digits as a double.
  const std::string too_big =
      "integer out of the 64-bit range (write it with a fraction or an exponent to read it as a "
      "double, or as a string to keep its digits)";
  EXPECT_EQ(error_of("9223372036854775808"), "column 1: " + too_big);
  EXPECT_EQ(error_of(R"({"id": -9223372036854775809})"), "column 8: " + too_big);
  EXPECT_EQ(error_of("123456789012345678901234567890"), "column 1: " + too_big);
  // An underflow rounds to the nearest double, like every other decimal fraction.
  EXPECT_EQ(parse_json("1e-400").as_double(), 0.0);
  EXPECT_EQ(parse_json("2.5e-320").as_double(), 2.5e-320);
}

TEST(ValueJson, AParserRecoversAfterAnError) {
  JsonParser parser;
  EXPECT_THROW(parser.parse(R"({"a": {"b": [1, )"), JsonError);
  EXPECT_EQ(parser.parse(R"({"a": {"b": [1]}})").to_json(), R"({"a":{"b":[1]}})");
}

}  // namespace
}  // namespace cwf
