// The aggregate actor's results, worked out by hand: every function (count, sum, avg, min, max)
// over tumbling and sliding windows in tokens and in time, with and without group-by, in both
// modes (incremental and recomputing). Each test runs a workflow file as a user writes it:
// jsonl_source (event time /t in seconds) -> aggregate (window on the connection) -> jsonl_sink,
// and compares the sink's lines with the expected ones, so the output record's shape (group,
// the `as` field, the window's event count), int versus double results and nulls are checked
// too. The comments under each input list its windows and what every function gives on them.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "actor_test_util.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "schedulers/register.hpp"

namespace cwf::actors {
namespace {

using testing::read_file;

using Lines = std::vector<std::string>;

// A file in the temporary folder, named after the running test and its mode.
std::string temp_path(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  for (char& c : test)
    if (c == '/') c = '_';
  return ::testing::TempDir() + "cwf_aggregate_" + test + "_" + name;
}

Lines lines(const std::string& text) {
  Lines out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

// Runs input -> aggregate -> output with the given aggregate parameters (YAML flow mapping
// entries) and window, in the mode of the test's parameter; the output's lines.
class WindowAggregate : public ::testing::TestWithParam<bool> {
 protected:
  std::uint64_t expected_errors_ = 0;  // errors the aggregate actor must report in a run

  bool recompute() const { return GetParam(); }

  Lines run(const std::string& input, const std::string& aggregate, const std::string& window) {
    static const SchedulerRegistry* schedulers = [] {
      auto* r = new SchedulerRegistry();
      cwf::schedulers::register_all(*r);
      return r;
    }();
    std::string in = temp_path("in.jsonl");
    std::ofstream(in, std::ios::binary) << input;
    std::string out = temp_path("out.jsonl");
    std::remove(out.c_str());
    std::string yaml =
        "name: aggregate\n"
        "actors:\n"
        "  src: {type: jsonl_source, path: " +
        in +
        ", time: /t}\n"
        "  agg: {type: aggregate, " +
        aggregate + ", recompute: " + (recompute() ? "true" : "false") +
        "}\n"
        "  out: {type: jsonl_sink, path: " +
        out +
        "}\n"
        "connections:\n"
        "  - from: src\n"
        "    to: agg\n"
        "    window: " +
        window +
        "\n"
        "  - agg -> out\n";
    LoadContext context{testing::registry(), *schedulers};
    auto workflow = load_workflow_text(yaml, "aggregate.yaml", ::testing::TempDir(), context);
    VirtualClock clock;
    ScheduledDirector director(std::make_unique<cwf::schedulers::FifoScheduler>());
    RunSummary summary = run_workflow(*workflow, director, clock);
    EXPECT_EQ(testing::Harness::errors(summary, "agg"), expected_errors_);
    return lines(read_file(out));
  }

  // One function's results, as the `result` field of each window's record.
  Lines run(const std::string& input, const std::string& function, const std::string& value,
            const std::string& window) {
    SCOPED_TRACE(function);
    std::string params = "function: " + function + ", as: result";
    if (!value.empty()) params += ", value: " + value;
    return run(input, params, window);
  }
};

// The lines of group `key` (records starting with {"group":"<key>"), in order.
Lines of_group(const Lines& all, const std::string& key) {
  Lines out;
  const std::string prefix = "{\"group\":\"" + key + "\"";
  for (const std::string& line : all)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

// Records {"result": <r>, "count": <events>} for the given results and window sizes.
Lines records(const std::vector<std::string>& results, const std::vector<int>& counts) {
  Lines out;
  for (std::size_t i = 0; i < results.size(); ++i)
    out.push_back("{\"result\":" + results[i] + ",\"count\":" + std::to_string(counts.at(i)) + "}");
  return out;
}

Lines grouped(const std::string& key, const std::vector<std::string>& results,
              const std::vector<int>& counts) {
  Lines out;
  for (const std::string& r : records(results, counts))
    out.push_back("{\"group\":\"" + key + "\"," + r.substr(1));
  return out;
}

// Seven events at t = 0..6; tumbling windows of 3 tokens:
//   [4, 10, -2]  count 3  sum 12  avg 4.0  min -2  max 10
//   [7, 1, -2]   count 3  sum 6   avg 2.0  min -2  max 7
//   [5]          count 1  sum 5   avg 5.0  min 5   max 5   (partial, at the end of input)
const std::string kSeven = R"({"t": 0, "v": 4}
{"t": 1, "v": 10}
{"t": 2, "v": -2}
{"t": 3, "v": 7}
{"t": 4, "v": 1}
{"t": 5, "v": -2}
{"t": 6, "v": 5}
)";

TEST_P(WindowAggregate, TumblingTokenWindows) {
  const std::string w = "{size: 3 tokens, step: 3 tokens}";
  const std::vector<int> n = {3, 3, 1};
  EXPECT_EQ(run(kSeven, "count", "", w), records({"3", "3", "1"}, n));
  EXPECT_EQ(run(kSeven, "count", "/v", w), records({"3", "3", "1"}, n));
  EXPECT_EQ(run(kSeven, "sum", "/v", w), records({"12", "6", "5"}, n));
  EXPECT_EQ(run(kSeven, "avg", "/v", w), records({"4.0", "2.0", "5.0"}, n));
  EXPECT_EQ(run(kSeven, "min", "/v", w), records({"-2", "-2", "5"}, n));
  EXPECT_EQ(run(kSeven, "max", "/v", w), records({"10", "7", "5"}, n));
}

// Six events at t = 0..5; windows of 3 tokens sliding by 1 (the last two partial, at the end of
// input). The extremes leave the windows one after the other, so min and max must give up their
// old front: the 0 (min) leaves after window 2, the 9 (max) after window 4; window 3 holds 3
// twice.
//   [6, 0, 3]   count 3  sum 9   avg 3.0   min 0   max 6
//   [0, 3, 9]   count 3  sum 12  avg 4.0   min 0   max 9
//   [3, 9, 3]   count 3  sum 15  avg 5.0   min 3   max 9
//   [9, 3, -3]  count 3  sum 9   avg 3.0   min -3  max 9
//   [3, -3]     count 2  sum 0   avg 0.0   min -3  max 3
//   [-3]        count 1  sum -3  avg -3.0  min -3  max -3
const std::string kSix = R"({"t": 0, "v": 6}
{"t": 1, "v": 0}
{"t": 2, "v": 3}
{"t": 3, "v": 9}
{"t": 4, "v": 3}
{"t": 5, "v": -3}
)";

TEST_P(WindowAggregate, SlidingTokenWindows) {
  const std::string w = "{size: 3 tokens, step: 1 token}";
  const std::vector<int> n = {3, 3, 3, 3, 2, 1};
  EXPECT_EQ(run(kSix, "count", "", w), records({"3", "3", "3", "3", "2", "1"}, n));
  EXPECT_EQ(run(kSix, "sum", "/v", w), records({"9", "12", "15", "9", "0", "-3"}, n));
  EXPECT_EQ(run(kSix, "avg", "/v", w), records({"3.0", "4.0", "5.0", "3.0", "0.0", "-3.0"}, n));
  EXPECT_EQ(run(kSix, "min", "/v", w), records({"0", "0", "3", "-3", "-3", "-3"}, n));
  EXPECT_EQ(run(kSix, "max", "/v", w), records({"6", "9", "9", "9", "3", "-3"}, n));
}

// Two groups interleaved, windows of 2 tokens sliding by 1 per group (each group's last window
// partial, at the end of input):
//   a: 1, 3, 2 -> [1, 3] [3, 2] [2]:  count 2 2 1  sum 4 5 2  avg 2.0 2.5 2.0  min 1 2 2  max 3 3 2
//   b: 7, 2, 9 -> [7, 2] [2, 9] [9]:  count 2 2 1  sum 9 11 9 avg 4.5 5.5 9.0  min 2 2 9  max 7 9 9
const std::string kInterleaved = R"({"t": 0, "k": "a", "v": 1}
{"t": 1, "k": "b", "v": 7}
{"t": 2, "k": "a", "v": 3}
{"t": 3, "k": "b", "v": 2}
{"t": 4, "k": "a", "v": 2}
{"t": 5, "k": "b", "v": 9}
)";

TEST_P(WindowAggregate, SlidingTokenWindowsPerGroup) {
  const std::string w = "{size: 2 tokens, step: 1 token, group_by: /k}";
  const std::vector<int> n = {2, 2, 1};
  auto check = [&](const std::string& function, const std::string& value,
                   const std::vector<std::string>& a, const std::vector<std::string>& b) {
    Lines all = run(kInterleaved, function, value, w);
    EXPECT_EQ(all.size(), 6u);
    EXPECT_EQ(of_group(all, "a"), grouped("a", a, n)) << function;
    EXPECT_EQ(of_group(all, "b"), grouped("b", b, n)) << function;
  };
  check("count", "", {"2", "2", "1"}, {"2", "2", "1"});
  check("sum", "/v", {"4", "5", "2"}, {"9", "11", "9"});
  check("avg", "/v", {"2.0", "2.5", "2.0"}, {"4.5", "5.5", "9.0"});
  check("min", "/v", {"1", "2", "2"}, {"2", "2", "9"});
  check("max", "/v", {"3", "3", "2"}, {"7", "9", "9"});
}

// Tumbling 10 s windows per group; both groups start at base 0. The event at 10 s lies on a
// boundary and belongs to [10, 20), not [0, 10). Group b has no event in [20, 30), but the port
// has seen 21 s, so at the end of input b gets that window empty: count 0, sum 0, and null for
// avg, min and max.
//   a: [0, 10) = {3, 5}   count 2  sum 8   avg 4.0   min 3     max 5
//      [10, 20) = {7}     count 1  sum 7   avg 7.0   min 7     max 7
//      [20, 30) = {1}     count 1  sum 1   avg 1.0   min 1     max 1
//   b: [0, 10) = {10, 20} count 2  sum 30  avg 15.0  min 10    max 20
//      [10, 20) = {4}     count 1  sum 4   avg 4.0   min 4     max 4
//      [20, 30) = {}      count 0  sum 0   avg null  min null  max null
const std::string kTwoGroupsInTime = R"({"t": 1, "k": "a", "v": 3}
{"t": 2, "k": "b", "v": 10}
{"t": 4, "k": "a", "v": 5}
{"t": 9, "k": "b", "v": 20}
{"t": 10, "k": "a", "v": 7}
{"t": 15, "k": "b", "v": 4}
{"t": 21, "k": "a", "v": 1}
)";

TEST_P(WindowAggregate, TumblingTimeWindowsPerGroup) {
  const std::string w = "{size: 10 s, step: 10 s, group_by: /k}";
  const std::vector<int> na = {2, 1, 1}, nb = {2, 1, 0};
  auto check = [&](const std::string& function, const std::string& value,
                   const std::vector<std::string>& a, const std::vector<std::string>& b) {
    Lines all = run(kTwoGroupsInTime, function, value, w);
    EXPECT_EQ(all.size(), 6u);
    EXPECT_EQ(of_group(all, "a"), grouped("a", a, na)) << function;
    EXPECT_EQ(of_group(all, "b"), grouped("b", b, nb)) << function;
  };
  check("count", "", {"2", "1", "1"}, {"2", "1", "0"});
  check("sum", "/v", {"8", "7", "1"}, {"30", "4", "0"});
  check("avg", "/v", {"4.0", "7.0", "1.0"}, {"15.0", "4.0", "null"});
  check("min", "/v", {"3", "7", "1"}, {"10", "4", "null"});
  check("max", "/v", {"5", "7", "1"}, {"20", "4", "null"});
}

// 10 s windows sliding by 5 s over ints, doubles and a null (the event at 3 s has no v):
//   [0, 10)  = {1.5, null, 2, 5.5}  4 events; numbers 1.5, 2, 5.5
//            count 3  sum 9.0  avg 3.0   min 1.5  max 5.5
//   [5, 15)  = {2, 5.5, -3}         3 events
//            count 3  sum 4.5  avg 1.5   min -3   max 5.5
//   [10, 20) = {-3}                 1 event; no double left, so the sum is an int again
//            count 1  sum -3   avg -3.0  min -3   max -3
// ([15, 25) starts after the last event, 12 s: no window.) count without a value counts the
// events, the null one included: 4, 3, 1.
const std::string kMixed = R"({"t": 0, "v": 1.5}
{"t": 3}
{"t": 5, "v": 2}
{"t": 9, "v": 5.5}
{"t": 12, "v": -3}
)";

TEST_P(WindowAggregate, SlidingTimeWindowsOverIntsDoublesAndNulls) {
  const std::string w = "{size: 10 s, step: 5 s}";
  const std::vector<int> n = {4, 3, 1};
  EXPECT_EQ(run(kMixed, "count", "", w), records({"4", "3", "1"}, n));
  EXPECT_EQ(run(kMixed, "count", "/v", w), records({"3", "3", "1"}, n));
  EXPECT_EQ(run(kMixed, "sum", "/v", w), records({"9.0", "4.5", "-3"}, n));
  EXPECT_EQ(run(kMixed, "avg", "/v", w), records({"3.0", "1.5", "-3.0"}, n));
  EXPECT_EQ(run(kMixed, "min", "/v", w), records({"1.5", "-3", "-3"}, n));
  EXPECT_EQ(run(kMixed, "max", "/v", w), records({"5.5", "5.5", "-3"}, n));
}

// `as` names the result field; without it the field is the function's name.
TEST_P(WindowAggregate, TheResultFieldIsNamedByAs) {
  const std::string w = "{size: 3 tokens, step: 3 tokens}";
  EXPECT_EQ(run(kSeven, "function: max, value: /v, as: top", w),
            (Lines{R"({"top":10,"count":3})", R"({"top":7,"count":3})", R"({"top":5,"count":1})"}));
  EXPECT_EQ(run(kSeven, "function: sum, value: /v", w),
            (Lines{R"({"sum":12,"count":3})", R"({"sum":6,"count":3})", R"({"sum":5,"count":1})"}));
}

// count under its own name: the record has one `count` field, the result (without a value the
// result is the window's event count anyway; with one, the non-null values are what was asked
// for), not a second `count` field with the events.
TEST_P(WindowAggregate, CountUnderItsOwnNameIsOneField) {
  const std::string w = "{size: 10 s, step: 5 s}";
  EXPECT_EQ(run(kMixed, "function: count", w),
            (Lines{R"({"count":4})", R"({"count":3})", R"({"count":1})"}));
  EXPECT_EQ(run(kMixed, "function: count, value: /v", w),
            (Lines{R"({"count":3})", R"({"count":3})", R"({"count":1})"}));
  Lines grouped =
      run(kTwoGroupsInTime, "function: count", "{size: 10 s, step: 10 s, group_by: /k}");
  EXPECT_EQ(of_group(grouped, "b"),
            (Lines{R"({"group":"b","count":2})", R"({"group":"b","count":1})",
                   R"({"group":"b","count":0})"}));
}

// min and max order values as the expression language does: a string and a number have no order,
// so the value that cannot be placed is reported (once per window that takes it in) and left out.
//   windows of 2 tokens: [3, "x"] -> error, min 3;  [1, 2] -> min 1
TEST_P(WindowAggregate, MinOfAStringAndANumberIsAnErrorNotAPick) {
  const std::string input = R"({"t": 0, "v": 3}
{"t": 1, "v": "x"}
{"t": 2, "v": 1}
{"t": 3, "v": 2}
)";
  expected_errors_ = 1;
  EXPECT_EQ(run(input, "min", "/v", "{size: 2 tokens, step: 2 tokens}"),
            records({"3", "1"}, {2, 2}));
  EXPECT_EQ(run(input, "max", "/v", "{size: 2 tokens, step: 2 tokens}"),
            records({"3", "2"}, {2, 2}));
}

INSTANTIATE_TEST_SUITE_P(Modes, WindowAggregate, ::testing::Bool(), [](const auto& info) {
  return info.param ? std::string("Recomputing") : std::string("Incremental");
});

// `group` holds the group-by key: a result under that name would hide it.
TEST(WindowAggregateParams, TheResultCannotBeNamedGroup) {
  EXPECT_EQ(testing::param_error(
                "aggregate",
                {{"function", Value("sum")}, {"value", Value("/v")}, {"as", Value("group")}}),
            "as: 'group' is the field of the group-by key; choose another name");
}

}  // namespace
}  // namespace cwf::actors
