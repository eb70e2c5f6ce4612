// A windowed actor's output can carry its window's bounds and group key: `aggregate` adds
// window_start and window_end with `window_times`, and the expressions of `expression`, `map` and
// `filter` see the variables window_start, window_end (nanoseconds) and group. Each test runs a
// workflow file as a user writes it: jsonl_source (event time /t in seconds) -> the actor (window
// on the connection) -> jsonl_sink, and compares the sink's lines.
#include <gtest/gtest.h>

#include <algorithm>
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

std::string temp_path(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return ::testing::TempDir() + "cwf_window_times_" + test + "_" + name;
}

// Runs input -> actor -> output; `actor` is the actor's YAML flow mapping, `window` the window
// of the connection into it ("" for a plain FIFO connection).
Lines run(const std::string& input, const std::string& actor, const std::string& window) {
  static const SchedulerRegistry* schedulers = [] {
    auto* r = new SchedulerRegistry();
    cwf::schedulers::register_all(*r);
    return r;
  }();
  std::string in = temp_path("in.jsonl");
  std::ofstream(in, std::ios::binary) << input;
  std::string out = temp_path("out.jsonl");
  std::remove(out.c_str());
  std::string yaml = "name: window_times\nactors:\n  src: {type: jsonl_source, path: " + in +
                     ", time: /t}\n  act: " + actor + "\n  out: {type: jsonl_sink, path: " + out +
                     "}\nconnections:\n";
  yaml += window.empty() ? "  - src -> act\n"
                         : "  - from: src\n    to: act\n    window: " + window + "\n";
  yaml += "  - act -> out\n";
  LoadContext context{testing::registry(), *schedulers};
  auto workflow = load_workflow_text(yaml, "window_times.yaml", ::testing::TempDir(), context);
  VirtualClock clock;
  ScheduledDirector director(std::make_unique<cwf::schedulers::FifoScheduler>());
  RunSummary summary = run_workflow(*workflow, director, clock);
  EXPECT_EQ(testing::Harness::errors(summary, "act"), 0u);
  Lines lines;
  std::istringstream text(read_file(out));
  for (std::string line; std::getline(text, line);)
    lines.push_back(line);
  return lines;
}

// Two groups in 10 s periods: a at 1, 4, 12 s; b at 2, 25 s. Windows by period, each group's
// from its first period on until the last event's (25 s):
//   a: [0, 10) 2 events, [10, 20) 1, [20, 30) 0      b: [0, 10) 1, [10, 20) 0, [20, 30) 1
const std::string kTwoGroups = R"({"t": 1, "k": "a"}
{"t": 2, "k": "b"}
{"t": 4, "k": "a"}
{"t": 12, "k": "a"}
{"t": 25, "k": "b"}
)";
const std::string kTumbling = "{size: 10 s, step: 10 s, group_by: /k}";

// The lines containing `needle`, in order.
Lines containing(const Lines& all, const std::string& needle) {
  Lines out;
  for (const std::string& line : all)
    if (line.find(needle) != std::string::npos) out.push_back(line);
  return out;
}

TEST(WindowTimes, AggregateAddsTheWindowsBoundsInTheUnitAsked) {
  Lines all = run(kTwoGroups, "{type: aggregate, function: count, window_times: s}", kTumbling);
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(containing(all, R"("group":"a")"),
            (Lines{R"({"window_start":0,"window_end":10,"group":"a","count":2})",
                   R"({"window_start":10,"window_end":20,"group":"a","count":1})",
                   R"({"window_start":20,"window_end":30,"group":"a","count":0})"}));
  EXPECT_EQ(containing(all, R"("group":"b")"),
            (Lines{R"({"window_start":0,"window_end":10,"group":"b","count":1})",
                   R"({"window_start":10,"window_end":20,"group":"b","count":0})",
                   R"({"window_start":20,"window_end":30,"group":"b","count":1})"}));
  // In milliseconds, with another function: the result and the event count come after the bounds.
  EXPECT_EQ(run("{\"t\": 1, \"v\": 4}\n{\"t\": 3, \"v\": 5}\n",
                "{type: aggregate, function: sum, value: /v, window_times: ms}",
                "{size: 10 s, step: 10 s}"),
            (Lines{R"({"window_start":0,"window_end":10000,"sum":9,"count":2})"}));
}

TEST(WindowTimes, AggregateWritesIsoDateTimesAndTokenWindowsTheirEventsTimes) {
  // Token windows have no interval: their bounds are their first and last event's timestamps.
  const std::string input = R"({"t": 1700000000.5}
{"t": 1700000003}
{"t": 1700000061}
)";
  EXPECT_EQ(
      run(input, "{type: aggregate, function: count, window_times: iso}",
          "{size: 2 tokens, step: 2 tokens}"),
      (Lines{
          R"({"window_start":"2023-11-14T22:13:20.5Z","window_end":"2023-11-14T22:13:23Z","count":2})",
          R"({"window_start":"2023-11-14T22:14:21Z","window_end":"2023-11-14T22:14:21Z","count":1})"}));
  // Seconds that are not whole are doubles.
  EXPECT_EQ(run(input, "{type: aggregate, function: count, window_times: s}",
                "{size: 2 tokens, step: 2 tokens}")
                .front(),
            R"({"window_start":1700000000.5,"window_end":1700000003,"count":2})");
}

TEST(WindowTimes, AggregateWithoutWindowTimesKeepsItsRecord) {
  EXPECT_EQ(containing(run(kTwoGroups, "{type: aggregate, function: count}", kTumbling),
                       R"("group":"a")"),
            (Lines{R"({"group":"a","count":2})", R"({"group":"a","count":1})",
                   R"({"group":"a","count":0})"}));
}

TEST(WindowTimes, AggregateParameters) {
  EXPECT_EQ(testing::param_error(
                "aggregate", {{"function", Value("count")}, {"window_times", Value("minutes")}}),
            "window_times: unknown format 'minutes' (use s, ms, us, ns or iso)");
  EXPECT_EQ(testing::param_error("aggregate", {{"function", Value("count")},
                                               {"window_times", Value("s")},
                                               {"as", Value("window_end")}}),
            "as: 'window_end' is a field of the window's bounds (window_times); choose another "
            "name");
}

TEST(WindowTimes, TheExpressionActorSeesTheBoundsAndTheKey) {
  Lines all = run(kTwoGroups,
                  "{type: expression, emit: \"{from: window_start / 1000000000, to: window_end / "
                  "1000000000, key: group, n: len(window)}\"}",
                  kTumbling);
  EXPECT_EQ(containing(all, R"("key":"b")"), (Lines{R"({"from":0,"to":10,"key":"b","n":1})",
                                                    R"({"from":10,"to":20,"key":"b","n":0})",
                                                    R"({"from":20,"to":30,"key":"b","n":1})"}));
  // `when` sees them too: only the windows that start at 10 s.
  EXPECT_EQ(
      run(kTwoGroups, "{type: expression, when: \"window_start == 10000000000\", emit: \"group\"}",
          kTumbling),
      (Lines{R"("a")", R"("b")"}));
}

TEST(WindowTimes, MapAndFilterSeeTheWindowOfEachToken) {
  const std::string input = R"({"t": 1, "k": "a", "v": 1}
{"t": 12, "k": "a", "v": 2}
{"t": 14, "k": "b", "v": 3}
)";
  // (The windows of a and b for [10, 20) close together; in which order is not the point.)
  Lines mapped =
      run(input, "{type: map, expression: \"{v: /v, minute_start: window_start, key: group}\"}",
          "{size: 10 s, step: 10 s, group_by: /k}");
  std::sort(mapped.begin(), mapped.end());
  EXPECT_EQ(mapped, (Lines{R"({"v":1,"minute_start":0,"key":"a"})",
                           R"({"v":2,"minute_start":10000000000,"key":"a"})",
                           R"({"v":3,"minute_start":10000000000,"key":"b"})"}));
  EXPECT_EQ(run(input, "{type: filter, where: \"group == 'b'\"}",
                "{size: 10 s, step: 10 s, group_by: /k}"),
            (Lines{R"({"t":14,"k":"b","v":3})"}));
}

TEST(WindowTimes, OnAPlainConnectionTheWindowIsTheEvent) {
  // One event per window: start and end are its timestamp, and there is no group.
  EXPECT_EQ(
      run("{\"t\": 7}\n", "{type: map, expression: \"[window_start, window_end, group]\"}", ""),
      (Lines{"[7000000000,7000000000,null]"}));
}

TEST(WindowTimes, AFieldWithoutItsSlashStillGetsThePathHint) {
  EXPECT_EQ(testing::param_error("map", {{"expression", Value("speed * 2")}}),
            "expression: column 1: unknown name 'speed'; paths into the input start with '/', as "
            "in /speed");
}

// `window` borrows the tokens of the window's events: an output that is the window itself keeps
// them after the events have left the port (each window looks back over two reports, so the
// older one leaves with the next), and a window declined by `when` lets go of them too (checked
// under the sanitizers).
TEST(WindowTimes, AnExpressionThatEmitsItsWindowKeepsTheTokensAfterTheEventsAreGone) {
  const std::string input =
      "{\"t\": 1, \"v\": \"first, long enough to be on the heap\"}\n"
      "{\"t\": 2, \"v\": \"second, long enough to be on the heap\"}\n"
      "{\"t\": 3, \"v\": \"third, long enough to be on the heap\"}\n";
  Lines out = run(input, "{type: expression, when: \"len(window) == 2\", emit: window}",
                  "{size: 2 tokens}");
  EXPECT_EQ(out, (Lines{"[{\"t\":1,\"v\":\"first, long enough to be on the heap\"},"
                        "{\"t\":2,\"v\":\"second, long enough to be on the heap\"}]",
                        "[{\"t\":2,\"v\":\"second, long enough to be on the heap\"},"
                        "{\"t\":3,\"v\":\"third, long enough to be on the heap\"}]"}));
}

}  // namespace
}  // namespace cwf::actors
