// The exit-status contract of `cwf run` (README, `cwf help`): 0 only when every event was
// processed and every sink confirmed its output, 3 when the run completed without that, 2 for bad
// usage, 1 when the run could not start; and run-time problems named with the workflow file and
// line of the actor, the event and the input line it came from.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include "process.hpp"

namespace cwf::testing {
namespace {

// One folder per test: CTest runs the tests of this file in parallel processes.
std::string temp_dir() {
  std::string dir = ::testing::TempDir() + "run_outcome/" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
  std::string command = "mkdir -p " + dir;
  EXPECT_EQ(std::system(command.c_str()), 0);
  return dir;
}

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = temp_dir() + name;
  std::ofstream(path) << text;
  return path;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Ten readings, one of them "n/a"; the csv has a header, so reading i is on line i + 2.
std::string readings_csv() {
  std::string text = "ts,sensor,celsius\n";
  for (int i = 0; i < 10; ++i)
    text += std::to_string(1000 + i) + ",s" + std::to_string(i % 3) + "," +
            (i == 6 ? std::string("n/a") : std::to_string(20 + i)) + "\n";
  return write_temp("readings.csv", text);
}

// `readings` (the csv above, its time from `time`) -> [`twice`, when `twice` is a map
// expression] -> `out` (NAME.jsonl); the workflow file NAME.yaml, written on line 2 onwards:
//   2 readings, 3 twice or out, 4 out.
std::string readings_workflow(const std::string& name, const std::string& csv,
                              const std::string& time, const std::string& twice = "") {
  std::string actors = "  readings: {type: csv_source, path: " + csv + ", time: " + time + "}\n";
  std::string connections =
      "  - readings -> " + std::string(twice.empty() ? "out" : "twice") + "\n";
  if (!twice.empty()) {
    actors += "  twice: {type: map, expression: \"" + twice + "\"}\n";
    connections += "  - twice -> out\n";
  }
  actors += "  out: {type: jsonl_sink, path: " + temp_dir() + name + ".jsonl}\n";
  return write_temp(name + ".yaml", "actors:\n" + actors + "connections:\n" + connections);
}

TEST(RunOutcome, ACompleteRunExitsZeroAndPrintsNoProblems) {
  std::string csv = readings_csv();
  std::string path = readings_workflow("complete", csv, "/ts");
  ProcessResult result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(lines_of(read_file(temp_dir() + "complete.jsonl")).size(), 10u);
}

TEST(RunOutcome, AMistypedTimeFieldRejectsEveryLineAndExitsThree) {
  std::string csv = readings_csv();
  std::string path = readings_workflow("typo", csv, "/tss");
  ProcessResult result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 3) << result.err;
  // Where the actor is declared, what it did, and the input line.
  EXPECT_TRUE(contains(
      result.err,
      "cwf: " + path + ":2: actor 'readings' (csv_source) rejected an event: " + csv + ":2: time:"))
      << result.err;
  EXPECT_TRUE(contains(result.err, "10 event(s) were not processed completely")) << result.err;
  EXPECT_TRUE(contains(result.err, "exit status 3")) << result.err;
  // The summary row: actor, declaration, rejected 10.
  EXPECT_TRUE(contains(result.err, path + ":2")) << result.err;
  // Accepted knowingly: exit 0, still reported.
  result = run_cwf({"run", path, "--max-errors", "10"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "accepted by --max-errors (10)")) << result.err;
  result = run_cwf({"run", path, "--max-errors", "9"});
  EXPECT_EQ(result.status, 3) << result.err;
  result = run_cwf({"run", path, "--max-errors", "all"});
  EXPECT_EQ(result.status, 0) << result.err;
  result = run_cwf({"run", path, "--max-errors", "-1"});
  EXPECT_EQ(result.status, 2) << result.err;
}

TEST(RunOutcome, AnExpressionErrorNamesTheActorLineTheEventAndItsInputLine) {
  std::string csv = readings_csv();
  std::string path = readings_workflow("expression", csv, "/ts", "/celsius * 2");
  ProcessResult result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 3) << result.err;
  // Reading 6 ("n/a") is on line 8 of the file.
  EXPECT_TRUE(contains(result.err,
                       "cwf: " + path + ":3: actor 'twice' (map) rejected an event: expression: "))
      << result.err;
  EXPECT_TRUE(contains(
      result.err,
      "    event {\"ts\":1006,\"sensor\":\"s0\",\"celsius\":\"n/a\"} from " + csv + ":8\n"))
      << result.err;
  EXPECT_EQ(lines_of(read_file(temp_dir() + "expression.jsonl")).size(), 9u);
}

TEST(RunOutcome, AFailingGroupKeyDropsTheEventAndSaysSo) {
  std::string path =
      write_temp("group_by.yaml",
                 "actors:\n"
                 "  numbers: {type: generator, count: 5, value: \"{v: i, s: 'x'}\"}\n"
                 "  count:   {type: counter}\n"
                 "  out:     {type: stdout}\n"
                 "connections:\n"
                 "  - {from: numbers, to: count, window: {size: 2 tokens, "
                 "group_by: [\"/v * /s\"]}}\n"
                 "  - count -> out\n");
  ProcessResult result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 3) << result.err;
  EXPECT_TRUE(contains(result.err,
                       "actor 'count' (counter) dropped an event: no group: group_by: column 4: "))
      << result.err;
  EXPECT_TRUE(contains(result.err, "5 event(s) were not processed completely")) << result.err;
}

// A key that is null (a misspelt field, a division by zero) would put every event in one group.
TEST(RunOutcome, ANullGroupKeyDropsTheEventAndSaysSo) {
  std::string path = write_temp("group_by_null.yaml",
                                "actors:\n"
                                "  numbers: {type: generator, count: 4, value: \"{v: i}\"}\n"
                                "  count:   {type: counter}\n"
                                "  out:     {type: stdout}\n"
                                "connections:\n"
                                "  - {from: numbers, to: count, window: {size: 2 tokens, "
                                "group_by: [/tags/0]}}\n"
                                "  - count -> out\n");
  ProcessResult result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 3) << result.err;
  EXPECT_TRUE(contains(result.err,
                       "actor 'count' (counter) dropped an event: no group: group_by: "
                       "key 1 of 1 is null (a field the event does not have?)\n"
                       "    event {\"v\":0}\n"))
      << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(RunOutcome, ASinkOnAFullDiskMayHaveLostItsEvents) {
  std::string path = write_temp("full.yaml",
                                "actors:\n"
                                "  numbers: {type: generator, count: 100, value: \"i\"}\n"
                                "  out:     {type: csv_sink, path: /dev/full}\n"
                                "connections:\n"
                                "  - numbers -> out\n");
  ProcessResult result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 3) << result.err;
  EXPECT_TRUE(contains(result.err,
                       "actor 'out' (csv_sink) may have lost 100 events: /dev/full: write "
                       "error: No space left on device"))
      << result.err;
}

TEST(RunOutcome, ErrorsInsideACompositeNameTheActorTheUserWroteAndTheInnerOne) {
  std::string dir = temp_dir();
  write_temp("inner.yaml",
             "name: inner\n"
             "inputs: [numbers]\n"
             "outputs: [results]\n"
             "actors:\n"
             "  divide: {type: map, expression: \"/v * /s\"}\n"
             "connections:\n"
             "  - numbers -> divide\n"
             "  - divide -> results\n");
  std::string path =
      write_temp("outer.yaml",
                 "actors:\n"
                 "  numbers: {type: generator, count: 5, value: \"{v: i, s: 'x'}\"}\n"
                 "  stage:   {workflow: inner.yaml}\n"
                 "  out:     {type: stdout}\n"
                 "connections:\n"
                 "  - numbers -> stage\n"
                 "  - stage.results -> out\n");
  ProcessResult result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 3) << result.err;
  EXPECT_TRUE(contains(result.err, "cwf: " + path + ":3: actor 'stage' (workflow:inner.yaml), in " +
                                       dir +
                                       "inner.yaml:5: actor 'divide' (map), rejected an event"))
      << result.err;
  EXPECT_TRUE(contains(result.err, "5 event(s) were not processed completely")) << result.err;
}

TEST(RunOutcome, ASubWorkflowFollowingAFileStopsWithTheRunAfterFor) {
  // The sub-workflow's own source follows a file, which never ends: the run's input goes on
  // while it runs, and `--for` stops it with the run's sources, under every director.
  std::string dir = temp_dir();
  write_temp("log.jsonl", "{\"v\": 1}\n");
  write_temp("inner.yaml",
             "name: inner\n"
             "inputs: [numbers]\n"
             "outputs: [results]\n"
             "actors:\n"
             "  log:  {type: jsonl_source, path: " +
                 dir +
                 "log.jsonl, follow: true, poll: 50 ms}\n"
                 "  both: {type: merge}\n"
                 "connections: [log -> both, numbers -> both, both -> results]\n");
  std::string path = write_temp("outer.yaml",
                                "actors:\n"
                                "  numbers: {type: generator, count: 2}\n"
                                "  stage:   {workflow: inner.yaml}\n"
                                "  out:     {type: jsonl_sink, path: " +
                                    dir +
                                    "out.jsonl}\n"
                                    "connections:\n"
                                    "  - numbers -> stage\n"
                                    "  - stage.results -> out\n");
  for (const std::string& director : kEveryDirector) {
    std::vector<std::string> args = {"run", path, "--for", "500ms"};
    for (const std::string& arg : director_args(director))
      args.push_back(arg);
    ProcessResult result = run_cwf(args);
    EXPECT_EQ(result.status, 0) << director << ": " << result.err;
    std::vector<std::string> out = lines_of(read_file(dir + "out.jsonl"));
    std::sort(out.begin(), out.end());
    EXPECT_EQ(out, (std::vector<std::string>{"0", "1", R"({"v":1})"})) << director;
  }
}

TEST(RunOutcome, AnEventLateForAWindowInsideACompositeMakesTheRunIncomplete) {
  // Readings at 0, 400 and 100 ms into 300 ms windows inside a sub-workflow: the reading at
  // 400 ms closes [0, 300), so the one at 100 ms is late there. The summary names the actor the
  // user wrote, and the run is incomplete, as for a window of the outer workflow.
  write_temp("readings.jsonl",
             "{\"ms\": 0, \"n\": 1}\n{\"ms\": 400, \"n\": 2}\n{\"ms\": 100, \"n\": 3}\n");
  write_temp("inner.yaml",
             "name: inner\n"
             "inputs: [numbers]\n"
             "outputs: [results]\n"
             "actors:\n"
             "  timed: {type: expression, emit: \"str(window)\"}\n"
             "connections:\n"
             "  - {from: numbers, to: timed, window: {size: 300 ms, step: 300 ms}}\n"
             "  - timed -> results\n");
  std::string path = write_temp(
      "outer.yaml",
      "actors:\n"
      "  readings: {type: jsonl_source, path: readings.jsonl, time: /ms, time_unit: ms}\n"
      "  n:        {type: map, expression: /n}\n"
      "  stage:    {workflow: inner.yaml}\n"
      "  out:      {type: stdout, format: text}\n"
      "connections:\n"
      "  - readings -> n\n"
      "  - n -> stage\n"
      "  - stage.results -> out\n");
  for (const char* director : {"scheduled", "threaded"}) {
    ProcessResult result = run_cwf({"run", path, "--director", director, "--clock", "virtual"});
    EXPECT_EQ(result.status, 3) << director << "\n" << result.err;
    EXPECT_EQ(result.out, "[1]\n[2]\n") << director;
    EXPECT_TRUE(contains(result.err, "cwf: 1 event(s) were not processed completely"))
        << result.err;
    // The summary's row for 'stage': rejected, failed, dropped, late.
    std::size_t row = result.err.find("  stage " + path + ":4 ");
    ASSERT_NE(row, std::string::npos) << result.err;
    std::istringstream counts(result.err.substr(row + 9 + path.size() + 2));
    std::uint64_t rejected = 9, failed = 9, dropped = 9, late = 9;
    counts >> rejected >> failed >> dropped >> late;
    EXPECT_EQ(std::vector<std::uint64_t>({rejected, failed, dropped, late}),
              std::vector<std::uint64_t>({0, 0, 0, 1}))
        << result.err;
  }
}

TEST(RunOutcome, ContradictoryDirectorOptionsAreRefused) {
  const std::string squares = std::string(CWF_SOURCE_DIR) + "/workflows/examples/squares.yaml";
  ProcessResult result = run_cwf({"run", squares, "--director", "threaded", "--scheduler", "qbs"});
  EXPECT_EQ(result.status, 2);
  EXPECT_TRUE(contains(result.err, "--scheduler chooses the policy of the scheduled director"))
      << result.err;
  result = run_cwf({"run", squares, "--director", "threaded", "--workers", "2"});
  EXPECT_EQ(result.status, 2);
  EXPECT_TRUE(contains(result.err, "--workers sets the threads of the scheduled director"))
      << result.err;
  std::string threaded = write_temp("threaded.yaml",
                                    "director: {type: threaded}\n"
                                    "actors:\n"
                                    "  numbers: {type: generator, count: 3}\n"
                                    "  out:     {type: stdout}\n"
                                    "connections:\n"
                                    "  - numbers -> out\n");
  result = run_cwf({"run", threaded, "--workers", "2"});
  EXPECT_EQ(result.status, 2);
  EXPECT_TRUE(contains(result.err, "the workflow asks for the threaded director")) << result.err;
  result = run_cwf({"run", threaded, "--grace", "1s"});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err, "cwf run: --grace only applies with --for\n");
}

TEST(RunOutcome, AnUnreachableNatsServerIsReportedAtStartAndItsPublicationsCountAsLost) {
  // Nothing listens on port 1 of the loopback interface.
  std::string orders = write_temp("orders.jsonl", "{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n");
  std::string path = write_temp("nats_down.yaml",
                                "actors:\n"
                                "  orders:  {type: jsonl_source, path: " +
                                    orders +
                                    "}\n"
                                    "  publish: {type: nats_publish, subject: orders, servers: "
                                    "nats://127.0.0.1:1}\n"
                                    "connections:\n"
                                    "  - orders -> publish\n");
  ProcessResult result = run_cwf({"run", path, "--for", "1s", "--grace", "1s"});
  EXPECT_EQ(result.status, 3) << result.err;
  EXPECT_TRUE(contains(result.err,
                       "actor 'publish' (nats_publish) warning: cannot connect to "
                       "nats://127.0.0.1:1 (no server answers)"))
      << result.err;
  EXPECT_TRUE(contains(result.err,
                       "may have lost 3 events: cannot connect to nats://127.0.0.1:1 "
                       "(no server answers), and no connection was ever made"))
      << result.err;
}

}  // namespace
}  // namespace cwf::testing

namespace cwf::testing {
namespace {

// --for D bounds the run: sources stop at D, the drain has the grace period, and what is still
// queued then is counted as dropped. A window that only closes at the end of the input holds
// every event until then; with no grace at all, the run ends before it closes.
TEST(RunOutcome, WhatIsStillQueuedWhenTheGraceEndsIsCountedAsDropped) {
  std::string path = write_temp("grace.yaml",
                                "actors:\n"
                                "  numbers: {type: generator, count: 1000000000, value: \"i\"}\n"
                                "  count:   {type: counter}\n"
                                "  out:     {type: jsonl_sink, path: /dev/null}\n"
                                "connections:\n"
                                "  - {from: numbers, to: count, window: {size: 1000000000 tokens, "
                                "step: 1000000000 tokens}}\n"
                                "  - count -> out\n");
  ProcessResult result = run_cwf({"run", path, "--for", "200ms", "--grace", "0s"});
  EXPECT_EQ(result.status, 3) << result.err;
  // Usually the counter's window is what is dropped. A grant in flight on another worker when
  // the time is up may still take the end of the input and close the window: then its one
  // result is what is still queued, at the sink.
  EXPECT_TRUE(contains(result.err, "actor 'count' (counter) dropped ") ||
              contains(result.err, "actor 'out' (jsonl_sink) dropped an event"))
      << result.err;
  EXPECT_TRUE(contains(result.err,
                       ": still queued when the run's time was up (--for and its grace period)\n"))
      << result.err;
  // With the default grace the open window closes at the end of the input, and is counted.
  result = run_cwf({"run", path, "--for", "200ms"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
}

}  // namespace
}  // namespace cwf::testing
