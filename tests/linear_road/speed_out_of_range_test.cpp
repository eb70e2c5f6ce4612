// A position report whose speed is out of range (speed -2 occurs in real generator output) is
// kept: its position still enters the car into its segment (notification, toll, charge) and
// counts for stopped cars, the car counts in the segment's cars, and only its speed is left out
// of the averages. It is a warning, not an error. A report with a bad position field cannot be
// used at all: that stays an error. One hand-built input, its answers worked out by hand below,
// through the reference and through the workflow, which must agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "linear_road/answer_writer.hpp"
#include "linear_road/reference_run.hpp"
#include "workflow_test_util.hpp"

namespace cwf::lr {
namespace {

// `type,time,carid,speed,xway,lane,dir,seg,pos,qid,sinit,send,dow,tod,day`, xway 0, dir 0.
std::string report(int time, int carid, int speed, int lane, int seg, int pos) {
  return "0," + std::to_string(time) + "," + std::to_string(carid) + "," + std::to_string(speed) +
         ",0," + std::to_string(lane) + ",0," + std::to_string(seg) + "," + std::to_string(pos) +
         ",-1,-1,-1,-1,-1,-1";
}

// The world (minute m = time / 60 + 1; LAV(m) = mean over minutes m-5..m-1 with a mean speed of
// the mean over cars of each car's mean speed, truncated, 0 without data; toll = 2 (cars(m-1) -
// 50)^2 when cars(m-1) > 50 and LAV < 40 and no accident ahead):
//
//  seg 20: cars 100..150 (51 cars) report once at t = 0 at 10 mph: minute 1 has 51 cars, mean 10.
//   Each is notified `0,c,0,0,0` (no data before minute 1).
//  car 1 enters seg 20 at t = 70 (minute 2) reporting speed -2 (line 60): kept. Notified
//   `0,1,70,10,2`: LAV(2) = minute 1's mean 10, cars(1) = 51, toll 2 * 1^2 = 2. At t = 100 it
//   is in seg 21: the 2 is charged, and seg 21 has no data: `0,1,100,0,0`. Its balance query at
//   t = 100 (written as the spec has it, unused fields -1, speed too) answers 2: `2,100,100,1,2`.
//   Dropping the t = 70 report (as before) would lose the seg-20 notification and charge: 0.
//  car 2 enters seg 20 at t = 125 (minute 3): minute 2 of seg 20 has one car (car 1) and no
//   speed in range, so it has no mean and LAV(3) = minute 1's 10, not (10 + -2) / 2 = 4 (the
//   speed counted) nor (10 + 0) / 2 = 5 (the minute counted): `0,2,125,10,0` (cars(2) = 1).
//  seg 40: car 5 at t = 10, 50 mph: `0,5,10,0,0`. Car 3 enters at t = 70 at 101 mph (out of
//   range above): kept, `0,3,70,50,0`. Car 4 enters at t = 130: minute 1 mean 50, minute 2 has
//   car 3 without a speed: LAV 50 (75 with 101 counted): `0,4,130,50,0`.
//  seg 30, lane 2, pos 158900: car 7 stands there at t = 0, 30, 60, 90, 120 (speed 0), car 8 at
//   t = 5, 35, 65, 95, 125, its t = 35 report with speed -2. Car 8's 4th report at t = 95 makes
//   it stopped: an accident, detected in minute 2, alerts from minute 3; both cars' 5th reports
//   (t = 120, 125) keep it in force through minute(125) + 1 = 4. Without the t = 35 report car 8
//   would be stopped only at t = 125, alerts from minute 4. First reports: `0,7,0,0,0`,
//   `0,8,5,0,0`.
//  car 9 enters seg 28 at t = 130 (minute 3), 2 segments upstream: alert `1,130,0,30,0,9` and
//   `0,9,130,0,0`.
//  car 6 at t = 40 has pos 600000, beyond the expressway (0..527999): its position is unusable,
//   the line is an error and car 6 gets no answer.
struct World {
  std::vector<std::string> lines;
  std::size_t car1_bad_speed_line = 0;  // 1-based line numbers
  std::size_t car6_bad_pos_line = 0;

  World() {
    for (int car = 100; car <= 150; ++car)
      lines.push_back(report(0, car, 10, 1, 20, 20 * 5280 + car));
    lines.push_back(report(0, 7, 0, 2, 30, 158900));
    lines.push_back(report(5, 8, 0, 2, 30, 158900));
    lines.push_back(report(10, 5, 50, 0, 40, 40 * 5280 + 1000));
    lines.push_back(report(30, 7, 0, 2, 30, 158900));
    lines.push_back(report(35, 8, -2, 2, 30, 158900));
    lines.push_back(report(40, 6, 50, 1, 20, 600000));
    car6_bad_pos_line = lines.size();
    lines.push_back(report(60, 7, 0, 2, 30, 158900));
    lines.push_back(report(65, 8, 0, 2, 30, 158900));
    lines.push_back(report(70, 1, -2, 0, 20, 20 * 5280 + 5000));
    car1_bad_speed_line = lines.size();
    lines.push_back(report(70, 3, 101, 0, 40, 40 * 5280 + 2000));
    lines.push_back(report(90, 7, 0, 2, 30, 158900));
    lines.push_back(report(95, 8, 0, 2, 30, 158900));
    lines.push_back(report(100, 1, 10, 1, 21, 20 * 5280 + 5440));
    lines.push_back("2,100,1,-1,-1,-1,-1,-1,-1,1,-1,-1,-1,-1,-1");
    lines.push_back(report(120, 7, 0, 2, 30, 158900));
    lines.push_back(report(125, 8, 0, 2, 30, 158900));
    lines.push_back(report(125, 2, 30, 0, 20, 20 * 5280 + 1320));
    lines.push_back(report(130, 4, 50, 0, 40, 40 * 5280 + 1320));
    lines.push_back(report(130, 9, 40, 0, 28, 28 * 5280 + 1320));
  }

  std::string write(const std::string& dir) const {
    std::string path = dir + "/input.dat";
    std::ofstream out(path);
    for (const std::string& line : lines)
      out << line << "\n";
    return path;
  }

  // The answers without emit, sorted as testing::answer_lines returns them.
  static std::vector<std::string> expected_answers() {
    std::vector<std::string> answers = {
        "0,1,70,10,2", "0,1,100,0,0",    "2,100,100,1,2", "0,2,125,10,0",
        "0,5,10,0,0",  "0,3,70,50,0",    "0,4,130,50,0",  "0,7,0,0,0",
        "0,8,5,0,0",   "1,130,0,30,0,9", "0,9,130,0,0",
    };
    for (int car = 100; car <= 150; ++car)
      answers.push_back("0," + std::to_string(car) + ",0,0,0");
    std::sort(answers.begin(), answers.end());
    return answers;
  }
};

TEST(LrSpeedOutOfRange, ReferenceKeepsThePositionAndLeavesOnlyTheSpeedOut) {
  World world;
  const std::string dir = testing::test_directory("speed_reference");
  const std::string input = world.write(dir);
  HistoricalTollTable history;
  AnswerWriter writer;
  ASSERT_TRUE(writer.open(dir + "/expected.out"));
  ReferenceRun run = run_reference(input, history, writer);
  ASSERT_TRUE(writer.close());
  ASSERT_TRUE(run.error.empty()) << run.error;

  EXPECT_EQ(testing::answer_lines(dir + "/expected.out"), World::expected_answers());
  ASSERT_EQ(run.accidents.size(), 1u);
  EXPECT_EQ(run.accidents[0].detected, 95);
  EXPECT_EQ(run.accidents[0].first_minute(), 3);
  EXPECT_EQ(run.accidents[0].last_minute(), 4);

  // Three reports kept without their speed (warnings); the bad position is an error.
  EXPECT_EQ(run.speeds_left_out, 3u);
  ASSERT_EQ(run.first_warnings.size(), 3u);
  EXPECT_EQ(run.first_warnings[1],
            input + ":" + std::to_string(world.car1_bad_speed_line) +
                ": speed -2 of the position report of car 1 at time 70 is outside 0..100: the "
                "report is kept, its speed is left out of the segment statistics");
  EXPECT_EQ(run.rejects.total(), 1u);
  EXPECT_EQ(run.rejects.first_lines(InputReject::pos),
            (std::vector<std::uint64_t>{world.car6_bad_pos_line}));
  EXPECT_EQ(run.records, world.lines.size() - 1);
}

TEST(LrSpeedOutOfRange, WorkflowAgreesAndCountsWarningsApartFromErrors) {
  World world;
  const std::string dir = testing::test_directory("speed_workflow");
  const std::string input = world.write(dir);
  testing::WorkflowRun run =
      testing::run_linear_road(input, "", dir + "/answers.out", {"scheduled", "fifo", 2});
  EXPECT_EQ(testing::answer_lines(dir + "/answers.out"), World::expected_answers());

  std::uint64_t warnings = 0, errors = 0;
  for (const ActorSummary& actor : run.summary.actors) {
    SCOPED_TRACE(actor.name);
    warnings += actor.warnings;
    errors += actor.rejected + actor.failed;
    if (actor.name == "input") {
      EXPECT_EQ(actor.warnings, 3u);
      EXPECT_EQ(actor.rejected, 1u);  // car 6's position
    }
  }
  EXPECT_EQ(warnings, 3u);
  EXPECT_EQ(errors, 1u);
  EXPECT_EQ(run.source_errors, 1u);
}

}  // namespace
}  // namespace cwf::lr
