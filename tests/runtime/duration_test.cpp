#include "runtime/time/duration.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace cwf {
namespace {

constexpr Duration kMinute = 60 * kSecond;
constexpr Duration kHour = 60 * kMinute;

TEST(ParseDuration, AcceptsNumbersWithAndWithoutUnits) {
  EXPECT_EQ(parse_duration("500 ms"), 500 * kMillisecond);
  EXPECT_EQ(parse_duration("500ms"), 500 * kMillisecond);
  EXPECT_EQ(parse_duration("30 s"), 30 * kSecond);
  EXPECT_EQ(parse_duration("1.5 s"), 1500 * kMillisecond);
  EXPECT_EQ(parse_duration("1 min"), kMinute);
  EXPECT_EQ(parse_duration("2 h"), 2 * kHour);
  EXPECT_EQ(parse_duration("250 us"), 250 * kMicrosecond);
  EXPECT_EQ(parse_duration("250 \u00b5s"), 250 * kMicrosecond);
  EXPECT_EQ(parse_duration("10 ns"), 10);
  EXPECT_EQ(parse_duration("  5 minutes "), 5 * kMinute);
  EXPECT_EQ(parse_duration("3 seconds"), 3 * kSecond);
  EXPECT_EQ(parse_duration(".5s"), 500 * kMillisecond);
  EXPECT_EQ(parse_duration("2."), 2 * kSecond);
}

TEST(ParseDuration, ABareNumberIsSeconds) {
  EXPECT_EQ(parse_duration("30"), 30 * kSecond);
  EXPECT_EQ(parse_duration("0.25"), 250 * kMillisecond);
  EXPECT_EQ(parse_duration("0"), 0);
}

TEST(ParseDuration, FractionsAreExactDecimals) {
  EXPECT_EQ(parse_duration("0.1 s"), 100 * kMillisecond);
  EXPECT_EQ(parse_duration("0.3 ms"), 300 * kMicrosecond);
  EXPECT_EQ(parse_duration("1.000000001 s"), kSecond + 1);
  EXPECT_EQ(parse_duration("1.5 ns"), 2);  // rounded to the nearest nanosecond
}

TEST(ParseDuration, RejectsWhatIsNotADuration) {
  auto message = [](std::string_view text) {
    try {
      parse_duration(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("5 parsecs"),
            "invalid duration '5 parsecs': unknown unit 'parsecs' (use ns, us, ms, s, min or h)");
  EXPECT_EQ(message("-1 s"), "invalid duration '-1 s': a duration cannot be negative");
  EXPECT_EQ(message(""), "invalid duration '': empty duration (expected e.g. 500 ms, 30 s, 1 min)");
  EXPECT_EQ(message("ms"),
            "invalid duration 'ms': expected a number followed by a unit (e.g. 500 ms, 30 s, "
            "1 min)");
  EXPECT_EQ(message("1e3 ms"),
            "invalid duration '1e3 ms': unknown unit 'e3 ms' (use ns, us, ms, s, min or h)");
  EXPECT_EQ(message("1 s 2"),
            "invalid duration '1 s 2': unknown unit 's 2' (use ns, us, ms, s, "
            "min or h)");
  EXPECT_EQ(message("999999999 h"), "invalid duration '999999999 h': duration is too large");
  std::string reason;
  EXPECT_FALSE(try_parse_duration("soon", &reason));
  EXPECT_EQ(reason, "expected a number followed by a unit (e.g. 500 ms, 30 s, 1 min)");
  EXPECT_EQ(try_parse_duration("2 ms"), 2 * kMillisecond);
}

TEST(FormatDuration, PicksTheLargestReadableUnit) {
  EXPECT_EQ(format_duration(0), "0 s");
  EXPECT_EQ(format_duration(10), "10 ns");
  EXPECT_EQ(format_duration(250 * kMicrosecond), "250 us");
  EXPECT_EQ(format_duration(250 * kMillisecond), "250 ms");
  EXPECT_EQ(format_duration(1500 * kMillisecond), "1.5 s");
  EXPECT_EQ(format_duration(1234567891), "1.235 s");
  EXPECT_EQ(format_duration(30 * kSecond), "30 s");
  EXPECT_EQ(format_duration(90 * kSecond), "1.5 min");
  EXPECT_EQ(format_duration(100 * kSecond), "100 s");
  EXPECT_EQ(format_duration(2 * kHour), "2 h");
  EXPECT_EQ(format_duration(-1500 * kMillisecond), "-1.5 s");
  EXPECT_EQ(format_duration(1001 * kMicrosecond), "1.001 ms");
}

TEST(FormatDuration, RoundTripsThroughParse) {
  for (Duration d : {Duration{0}, Duration{7}, 250 * kMicrosecond, 1500 * kMillisecond,
                     90 * kSecond, 3 * kHour, 1234 * kMillisecond})
    EXPECT_EQ(parse_duration(format_duration(d)), d) << format_duration(d);
}

}  // namespace
}  // namespace cwf
