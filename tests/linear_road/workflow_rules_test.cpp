// The Linear Road workflow's own logic on small hand-built inputs: what its actors add to the
// reference's blocks (the source's error handling and pacing, the order of balance queries after
// their car's report, charging on leaving a segment, exit lane, re-entry, accident alerts through
// the chain, daily expenditures from the tolls file). Each case also equals the reference.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "linear_road/answer_writer.hpp"
#include "linear_road/reference.hpp"
#include "reference_test_util.hpp"
#include "workflow_test_util.hpp"

namespace cwf::lr {
namespace {

using testing::balance_query;
using testing::DirectorChoice;
using testing::Place;
using testing::position_report;

// 60 cars (ids 1000..1059) at 10 mph in segment 10 during minute 1: a report in that segment in
// minute 2 pays 2 * (60 - 50)^2 = 200.
std::vector<InputRecord> congestion() {
  std::vector<InputRecord> records;
  for (int i = 0; i < 60; ++i)
    records.push_back(position_report(i, 1000 + i, 10, Place{.seg = 10, .pos = 52800 + 10 * i}));
  return records;
}

std::vector<InputRecord> by_time(std::vector<InputRecord> records) {
  std::stable_sort(records.begin(), records.end(),
                   [](const InputRecord& a, const InputRecord& b) { return a.time < b.time; });
  return records;
}

std::vector<std::string> reference_answers(const std::vector<InputRecord>& records,
                                           const std::string& dir) {
  HistoricalTollTable history;
  AnswerWriter writer;
  EXPECT_TRUE(writer.open(dir + "/expected.out"));
  Reference reference(writer, history);
  for (const InputRecord& r : records)
    reference.process(r);
  EXPECT_TRUE(writer.close());
  return testing::answer_lines(dir + "/expected.out");
}

// Runs the workflow on `records` (written as an input file) and checks it equals the reference.
// `replicas` > 0: the partitioned workflow with that many replicas.
std::vector<std::string> workflow_answers(const std::vector<InputRecord>& records,
                                          const std::string& name,
                                          const DirectorChoice& director = {"scheduled", "fifo", 2},
                                          int replicas = 0) {
  std::string dir = testing::test_directory(name);
  testing::write_input(dir + "/input.dat", records);
  testing::run_linear_road(
      dir + "/input.dat", "", dir + "/out", director, {},
      replicas > 0 ? testing::partitioned_workflow(dir, replicas) : testing::kFusedWorkflow);
  std::vector<std::string> answers = testing::answer_lines(dir + "/out");
  EXPECT_EQ(answers, reference_answers(records, dir));
  return answers;
}

bool has(const std::vector<std::string>& answers, const std::string& line) {
  return std::find(answers.begin(), answers.end(), line) != answers.end();
}

TEST(LrWorkflowRules, BalanceQueryAfterItsCarsReportIncludesTheChargeOfThatReport) {
  for (const DirectorChoice& director :
       {DirectorChoice{"threaded", "fifo", 1}, DirectorChoice{"scheduled", "qbs", 2}}) {
    auto records = congestion();
    records.push_back(position_report(60, 1, 30, Place{.seg = 10}));
    records.push_back(position_report(90, 1, 30, Place{.seg = 11}));  // leaves 10: pays 200
    records.push_back(balance_query(90, 1, 7));
    auto answers = workflow_answers(by_time(records), "balance_" + director.name(), director);
    // Lines without emit: 0,carid,time,lav,toll / 2,time,resulttime,qid,balance.
    EXPECT_TRUE(has(answers, "0,1,60,10,200"));
    EXPECT_TRUE(has(answers, "2,90,90,7,200")) << director.name();
  }
}

// Partitioned by expressway, a car's balance is what every replica charged it: car 1 pays 200 on
// expressway 0 (replica 0), comes back on expressway 1 (replica 1) and pays 200 there.
TEST(LrWorkflowRules, PartitionedBalanceAddsWhatEachExpresswayCharged) {
  for (const DirectorChoice& director :
       {DirectorChoice{"threaded", "fifo", 1}, DirectorChoice{"scheduled", "fifo", 1},
        DirectorChoice{"scheduled", "rr", 2}}) {
    auto records = congestion();  // expressway 0, minute 1
    for (int i = 0; i < 60; ++i)  // expressway 1, minute 3
      records.push_back(position_report(120 + i % 60, 2000 + i, 10,
                                        Place{.seg = 10, .pos = 52800 + 10 * i, .xway = 1}));
    records.push_back(position_report(60, 1, 30, Place{.seg = 10}));
    records.push_back(position_report(90, 1, 30, Place{.seg = 11}));  // pays 200
    records.push_back(balance_query(90, 1, 7));
    records.push_back(position_report(200, 1, 30, Place{.seg = 10, .lane = 0, .xway = 1}));
    records.push_back(position_report(230, 1, 30, Place{.seg = 11, .xway = 1}));  // pays 200
    records.push_back(balance_query(230, 1, 8));
    records.push_back(balance_query(231, 99, 9));  // never seen: 0 from each replica
    for (int replicas : {2, 3}) {
      auto answers = workflow_answers(
          by_time(records), "partitioned_" + std::to_string(replicas) + "_" + director.name(),
          director, replicas);
      EXPECT_TRUE(has(answers, "0,1,200,10,200")) << director.name();
      EXPECT_TRUE(has(answers, "2,90,90,7,200")) << director.name();
      EXPECT_TRUE(has(answers, "2,230,230,8,400")) << director.name();
      EXPECT_TRUE(has(answers, "2,231,231,9,0")) << director.name();
    }
  }
}

TEST(LrWorkflowRules, AReplicatedTollActorWithoutItsBalanceSumIsRefused) {
  std::string dir = testing::test_directory("replicas_without_sum");
  testing::write_input(dir + "/input.dat", congestion());
  std::ofstream(dir + "/wf.yaml") << "actors:\n"
                                     "  input: {type: lr_source, path: input.dat}\n"
                                     "  tolls: {type: lr_toll, parallelism: 2}\n"
                                     "  expenditures: {type: lr_daily_expenditure}\n"
                                     "  answers: {type: lr_answer_sink, path: out}\n"
                                     "connections:\n"
                                     "  - {from: input.out, to: tolls, partition_by: /xway}\n"
                                     "  - tolls -> answers\n"
                                     "  - input.expenditure -> expenditures\n"
                                     "  - expenditures -> answers\n";
  try {
    testing::run_linear_road(dir + "/input.dat", "", dir + "/out", {"scheduled", "fifo", 1}, {},
                             dir + "/wf.yaml");
    ADD_FAILURE() << "the workflow ran";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("connect its 'balances' output to an lr_balance_sum"),
              std::string::npos)
        << e.what();
  }
}

TEST(LrWorkflowRules, LeavingByTheExitLaneOfTheTolledSegmentIsNotCharged) {
  auto records = congestion();
  records.push_back(position_report(60, 2, 30, Place{.seg = 10}));
  records.push_back(position_report(90, 2, 30, Place{.seg = 10, .lane = 4, .pos = 52900}));
  records.push_back(balance_query(90, 2, 8));
  // Leaving by the exit ramp of the next segment pays for the tolled one.
  records.push_back(position_report(60, 3, 30, Place{.seg = 10, .pos = 52810}));
  records.push_back(position_report(90, 3, 30, Place{.seg = 11, .lane = 4}));
  records.push_back(balance_query(90, 3, 9));
  auto answers = workflow_answers(by_time(records), "exit_lane");
  EXPECT_TRUE(has(answers, "0,2,60,10,200"));
  EXPECT_TRUE(has(answers, "2,90,90,8,0"));
  EXPECT_TRUE(has(answers, "2,90,90,9,200"));
  // No notification for the exit-lane reports.
  for (const std::string& line : answers)
    EXPECT_NE(line.rfind("0,2,90,", 0), 0u) << line;
}

TEST(LrWorkflowRules, ReenteringCarStartsANewTripAndIsNotChargedForTheOldOne) {
  auto records = congestion();
  records.push_back(position_report(60, 4, 30, Place{.seg = 10}));
  records.push_back(position_report(200, 4, 30, Place{.seg = 50, .lane = 0}));
  records.push_back(balance_query(200, 4, 10));
  auto answers = workflow_answers(by_time(records), "reentry");
  EXPECT_TRUE(has(answers, "0,4,60,10,200"));
  EXPECT_TRUE(has(answers, "0,4,200,0,0"));  // notified again: a new trip
  EXPECT_TRUE(has(answers, "2,200,200,10,0"));
}

TEST(LrWorkflowRules, AccidentAheadAlertsAndZeroesTheToll) {
  std::vector<InputRecord> records = congestion();
  // Cars 5 and 6 stand at the same place of segment 12 from 0 s: stopped at their 4th report
  // (90 s, minute 2), the accident is in force from minute 3.
  for (Seconds t : {0, 30, 60, 90, 120, 150, 180}) {
    records.push_back(position_report(t, 5, 0, Place{.seg = 12, .lane = 2, .pos = 64000}));
    records.push_back(position_report(t, 6, 0, Place{.seg = 12, .lane = 2, .pos = 64000}));
  }
  records.push_back(position_report(125, 7, 40, Place{.seg = 9}));   // 3 segments upstream
  records.push_back(position_report(125, 8, 40, Place{.seg = 14}));  // downstream: no alert
  auto answers = workflow_answers(by_time(records), "accident");
  EXPECT_TRUE(has(answers, "1,125,0,12,0,7"));  // 1,time,xway,accseg,dir,carid
  EXPECT_TRUE(has(answers, "0,7,125,0,0"));
  for (const std::string& line : answers)
    EXPECT_NE(line.rfind("1,125,0,12,0,8", 0), 0u);
}

TEST(LrWorkflowRules, MalformedAndOutOfOrderLinesAreErrorsAndSkipped) {
  std::string dir = testing::test_directory("malformed");
  auto records = congestion();
  {
    std::ofstream input(dir + "/input.dat");
    for (std::size_t i = 0; i < records.size(); ++i) {
      input << testing::input_line(records[i]) << "\n";
      if (i == 10) input << "this is not a report\n";
      if (i == 20) input << "0,20,1,1,0,1,0,10,52800\n";                     // 9 fields
      if (i == 30) input << "0,5,77,10,0,1,0,10,52800,-1,-1,-1,-1,-1,-1\n";  // earlier than 30
    }
  }
  testing::WorkflowRun run =
      testing::run_linear_road(dir + "/input.dat", "", dir + "/out", {"scheduled", "fifo", 2});
  EXPECT_EQ(run.source_errors, 3u);
  EXPECT_EQ(run.summary.incomplete(), 3u);
  EXPECT_EQ(testing::answer_lines(dir + "/out"), reference_answers(records, dir));
}

TEST(LrWorkflowRules, DailyExpenditureComesFromTheTollsFile) {
  std::string dir = testing::test_directory("expenditure");
  std::vector<InputRecord> records = {testing::expenditure_query(5, 42, 1, 0, 3),
                                      testing::expenditure_query(6, 42, 2, 1, 3),   // other xway
                                      testing::expenditure_query(7, 43, 3, 0, 3)};  // no row
  testing::write_input(dir + "/input.dat", records);
  {
    std::ofstream tolls(dir + "/tolls.dat");
    tolls << "42,3,0,17\n43,4,0,12\n";
  }
  testing::WorkflowRun run = testing::run_linear_road(dir + "/input.dat", dir + "/tolls.dat",
                                                      dir + "/out", {"threaded", "fifo", 1});
  EXPECT_EQ(testing::answer_lines(dir + "/out"),
            (std::vector<std::string>{"3,5,1,17", "3,6,2,0", "3,7,3,0"}));
  EXPECT_EQ(run.answers[3], 3u);
}

TEST(LrWorkflowRules, PacedRunReleasesTuplesAtTimeOverCompressionAndEmitsWithinTheLimit) {
  std::string dir = testing::test_directory("paced");
  auto records = congestion();  // 0..59 s
  records.push_back(position_report(60, 1, 30, Place{.seg = 10}));
  testing::write_input(dir + "/input.dat", records);
  const double compression = 60;  // 60 s of data in 1 s
  auto started = std::chrono::steady_clock::now();
  testing::run_linear_road(dir + "/input.dat", "", dir + "/out", {"scheduled", "fifo", 2},
                           {{"input", "compression", "60"}, {"answers", "compression", "60"}});
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_GE(seconds, 60 / compression - 0.05);
  auto lines = testing::answer_lines(dir + "/out", /*drop_emit=*/false);
  ASSERT_EQ(lines.size(), 61u);
  for (const std::string& line : lines) {
    // 0,carid,time,emit,...
    int carid, time, emit;
    ASSERT_EQ(std::sscanf(line.c_str(), "0,%d,%d,%d", &carid, &time, &emit), 3) << line;
    EXPECT_GE(emit, time);
    EXPECT_LE(emit, time + kTollAlertBalanceLimit) << line;
  }
}

}  // namespace
}  // namespace cwf::lr
