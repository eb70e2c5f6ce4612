#include <gtest/gtest.h>

#include <filesystem>

#include "actor_test_util.hpp"

namespace cwf::actors {
namespace {

using testing::Harness;
using testing::param_error;
using testing::write_file;
using Lines = std::vector<std::string>;
using Times = std::vector<Timestamp>;

TEST(JsonlSource, EachLineIsARecordWithNestedObjectsAndArrays) {
  std::string path =
      write_file("in.jsonl",
                 "{\"id\": 1, \"tags\": [\"a\", \"b\"], \"pos\": {\"x\": 1.5, "
                 "\"y\": [1, {\"z\": null}]}}\n"
                 "\n"
                 "  {\"id\": 2, \"ok\": true, \"name\": \"a longer string value\"}  \r\n"
                 "{\"id\": 3}");
  Harness h;
  h.add("src", "jsonl_source", {{"path", Value(path)}});
  auto& out = h.collect("src");
  RunSummary summary = h.run();
  EXPECT_EQ(out.json(),
            (Lines{R"({"id":1,"tags":["a","b"],"pos":{"x":1.5,"y":[1,{"z":null}]}})",
                   R"({"id":2,"ok":true,"name":"a longer string value"})", R"({"id":3})"}));
  EXPECT_EQ(Harness::errors(summary, "src"), 0u);
  // Each line is an external event: its own wave root.
  EXPECT_EQ(out.seen[0].wave.find('.'), std::string::npos);
}

TEST(JsonlSource, BadLinesAreCountedAndSentToErrors) {
  std::string path = write_file("in.jsonl",
                                "{\"id\": 1}\n"
                                "{\"id\": 2,}\n"
                                "[1, 2]\n"
                                "not json\n"
                                "{\"id\": \"unterminated}\n"
                                "{\"id\": 6}\n"
                                "{\"id\": 7, \"v\": 1e400}\n");
  Harness h;
  h.add("src", "jsonl_source", {{"path", Value(path)}});
  auto& out = h.collect("src");
  auto& errors = h.collect("src", "errors");
  RunSummary summary = h.run();
  EXPECT_EQ(out.json(), (Lines{R"({"id":1})", R"({"id":6})"}));
  EXPECT_EQ(Harness::errors(summary, "src"), 0u);  // handled on `errors`, not rejected
  std::string f = R"({"file":")" + path + R"(","line":)";
  EXPECT_EQ(
      errors.json(),
      (Lines{
          f + R"(2,"text":"{\"id\": 2,}","error":"invalid JSON at column 10: expected a key string but found '}'"})",
          f + R"(3,"text":"[1, 2]","error":"expected a JSON object, got array"})",
          f + R"x(4,"text":"not json","error":"invalid JSON at column 1: invalid literal (expected null)"})x",
          f + R"(5,"text":"{\"id\": \"unterminated}","error":"invalid JSON at column 8: unterminated string"})",
          f + R"x(7,"text":"{\"id\": 7, \"v\": 1e400}","error":"invalid JSON at column 16: number out of the range of a double (about 1.8e308)"})x"}));
}

TEST(JsonlSource, TimeExpressionStampsEventsAndItsFailuresAreMalformedLines) {
  std::string path = write_file("in.jsonl",
                                "{\"ts\": 1.5, \"v\": 1}\n"
                                "{\"v\": 2}\n"
                                "{\"ts\": \"soon\", \"v\": 3}\n"
                                "{\"ts\": 2, \"v\": 4}\n"
                                "{\"ts\": \"2024-05-01T12:00:00.25Z\", \"v\": 5}\n"
                                "{\"ts\": \"2024-05-01T14:00:00+02:00\", \"v\": 6}\n");
  Harness h;
  h.add("src", "jsonl_source", {{"path", Value(path)}, {"time", Value("/ts")}});
  auto& out = h.collect("src");
  auto& errors = h.collect("src", "errors");
  h.run();
  constexpr Timestamp k2024 = 1714564800LL * kSecond;  // 2024-05-01T12:00:00Z
  EXPECT_EQ(out.times(), (Times{1'500'000'000, 2'000'000'000, k2024 + 250'000'000, k2024}));
  ASSERT_EQ(errors.seen.size(), 2u);
  EXPECT_EQ(*errors.seen[0].token.field("error"),
            Value("time: expected a number or a date-time string, got null"));
  EXPECT_EQ(*errors.seen[1].token.field("error"),
            Value("time: 'soon' is neither a number nor an ISO-8601 date-time"));
}

TEST(JsonlSource, TimeUnitScalesNumbers) {
  std::string path = write_file("in.jsonl", "{\"t\": 1500}\n{\"t\": 2000.5}\n");
  Harness h;
  h.add("src", "jsonl_source",
        {{"path", Value(path)}, {"time", Value("/t")}, {"time_unit", Value("ms")}});
  auto& out = h.collect("src");
  h.run();
  EXPECT_EQ(out.times(), (Times{1'500'000'000, 2'000'500'000}));
}

TEST(JsonlSource, MillisecondTimesUnderSecondsHintAtTheUnitOnce) {
  // Milliseconds since the epoch read as seconds lie past the clock's end (2262): every line
  // fails, and the first failure says which unit the times likely count.
  std::string path = write_file("in.jsonl",
                                "{\"ts\": 1700000000000, \"v\": 1}\n"
                                "{\"ts\": 1700000000500, \"v\": 2}\n");
  Harness h;
  h.add("src", "jsonl_source", {{"path", Value(path)}, {"time", Value("/ts")}});
  auto& out = h.collect("src");
  auto& errors = h.collect("src", "errors");
  RunSummary summary = h.run();
  EXPECT_TRUE(out.seen.empty());
  EXPECT_EQ(Harness::errors(summary, "src"), 0u);  // sent to the connected `errors` port
  ASSERT_EQ(errors.seen.size(), 2u);
  EXPECT_EQ(*errors.seen[0].token.field("error"),
            Value("time: 1700000000000 is out of range in seconds; if the times count "
                  "milliseconds, set `time_unit: ms`"));
  EXPECT_EQ(*errors.seen[1].token.field("error"), Value("time: out of range"));

  // With the unit the hint names, the same file reads.
  Harness fixed;
  fixed.add("src", "jsonl_source",
            {{"path", Value(path)}, {"time", Value("/ts")}, {"time_unit", Value("ms")}});
  auto& read = fixed.collect("src");
  EXPECT_EQ(Harness::errors(fixed.run(), "src"), 0u);
  EXPECT_EQ(read.times(), (Times{1'700'000'000'000'000'000, 1'700'000'000'500'000'000}));
}

TEST(JsonlSource, TheUnitHintNamesTheCoarsestUnitInWhichTheTimeFits) {
  auto first_error = [](const std::string& line, const std::string& unit) {
    std::string path = write_file("in.jsonl", line + "\n");
    Harness h;
    h.add("src", "jsonl_source",
          {{"path", Value(path)}, {"time", Value("/ts")}, {"time_unit", Value(unit)}});
    auto& errors = h.collect("src", "errors");
    h.run();
    return errors.seen.empty() ? std::string() : errors.seen[0].token.field("error")->to_text();
  };
  EXPECT_EQ(first_error(R"({"ts": 1.7e15})", "s"),
            "time: 1.7e+15 is out of range in seconds; if the times count microseconds, set "
            "`time_unit: us`");
  EXPECT_EQ(first_error(R"({"ts": "1700000000000000000"})", "ms"),
            "time: 1700000000000000000 is out of range in milliseconds; if the times count "
            "nanoseconds, set `time_unit: ns`");
  // Out of range in every unit: nothing to suggest.
  EXPECT_EQ(first_error(R"({"ts": 1e300})", "s"), "time: out of range");
}

// Events at data times 100 s, 100.5 s, 102 s, 102 s replayed on a virtual clock starting at 5 s.
struct Paced {
  Times times, fired;
};
Paced run_paced(const std::string& pace) {
  std::string path = write_file("in.jsonl",
                                "{\"ts\": 100, \"v\": 1}\n"
                                "{\"ts\": 100.5, \"v\": 2}\n"
                                "{\"ts\": 102, \"v\": 3}\n"
                                "{\"ts\": 102, \"v\": 4}\n");
  Harness h;
  h.add("src", "jsonl_source",
        {{"path", Value(path)}, {"time", Value("/ts")}, {"pace", Value(pace)}});
  auto& out = h.collect("src");
  h.run(5 * kSecond);
  return {out.times(), out.fired()};
}

TEST(JsonlSource, PaceRealReplaysAtTheDataPaceOnTheClock) {
  Paced p = run_paced("real");
  EXPECT_EQ(p.times, (Times{100 * kSecond, 100'500 * kMillisecond, 102 * kSecond, 102 * kSecond}));
  EXPECT_EQ(p.fired, (Times{5 * kSecond, 5'500 * kMillisecond, 7 * kSecond, 7 * kSecond}));
}

TEST(JsonlSource, PaceTenXReplaysTenTimesFaster) {
  Paced p = run_paced("10x");
  EXPECT_EQ(p.times, (Times{100 * kSecond, 100'500 * kMillisecond, 102 * kSecond, 102 * kSecond}));
  EXPECT_EQ(p.fired,
            (Times{5 * kSecond, 5'050 * kMillisecond, 5'200 * kMillisecond, 5'200 * kMillisecond}));
}

TEST(JsonlSource, PaceFastDoesNotWait) {
  Paced p = run_paced("fast");
  EXPECT_EQ(p.times, (Times{100 * kSecond, 100'500 * kMillisecond, 102 * kSecond, 102 * kSecond}));
  EXPECT_EQ(p.fired, (Times(4, 5 * kSecond)));
}

TEST(JsonlSource, WithoutTimeEventsAreStampedWithTheClock) {
  std::string path = write_file("in.jsonl", "{\"a\": 1}\n{\"a\": 2}\n");
  Harness h;
  h.add("src", "jsonl_source", {{"path", Value(path)}});
  auto& out = h.collect("src");
  h.run(42);
  EXPECT_EQ(out.times(), (Times{42, 42}));
}

TEST(JsonlSource, BatchAndLimit) {
  std::string content;
  for (int i = 0; i < 1000; ++i)
    content += "{\"i\": " + std::to_string(i) + "}\n";
  std::string path = write_file("in.jsonl", content);
  Harness h;
  h.add("src", "jsonl_source", {{"path", Value(path)}, {"batch", Value(7)}, {"limit", Value(500)}});
  auto& out = h.collect("src");
  RunSummary summary = h.run();
  ASSERT_EQ(out.seen.size(), 500u);
  EXPECT_EQ(out.seen.back().token.field("i")->as_int(), 499);
  EXPECT_EQ(summary.actors[0].firings, 72u);  // ceil(500 / 7)
}

TEST(JsonlSource, MissingFileIsAParamError) {
  EXPECT_EQ(param_error("jsonl_source", {{"path", Value("/nonexistent/x.jsonl")}}),
            "path: cannot open '/nonexistent/x.jsonl': No such file or directory");
  EXPECT_EQ(param_error("jsonl_source",
                        {{"path", Value(write_file("in.jsonl", ""))}, {"batch", Value(0)}}),
            "batch: batch must be at least 1");
}

TEST(JsonlSource, RelativePathsResolveAgainstTheWorkflowFolder) {
  // The file's name alone, relative to the folder it is in.
  std::string name = std::filesystem::path(write_file("rel.jsonl", "{\"a\": 1}\n")).filename();
  Params p({{"path", Value(name)}}, {}, ::testing::TempDir());
  EXPECT_NO_THROW(testing::registry().find("jsonl_source")->factory(p));
}

}  // namespace
}  // namespace cwf::actors
