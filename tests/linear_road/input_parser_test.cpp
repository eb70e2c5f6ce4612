#include "linear_road/input_parser.hpp"

#include <gtest/gtest.h>

#include <string>

#include "linear_road/answer_format.hpp"

namespace cwf::lr {
namespace {

InputReject reject_of(const std::string& line) {
  InputRecord record;
  return parse_input_line(line, record);
}

TEST(InputParser, ReadsAllFifteenFields) {
  InputRecord r;
  ASSERT_EQ(parse_input_line("0,12,345,67,1,2,1,99,527999,-1,-1,-1,-1,-1,-1", r),
            InputReject::none);
  EXPECT_EQ(r.type, 0);
  EXPECT_EQ(r.time, 12);
  EXPECT_EQ(r.carid, 345);
  EXPECT_EQ(r.speed, 67);
  EXPECT_EQ(r.xway, 1);
  EXPECT_EQ(r.lane, 2);
  EXPECT_EQ(r.dir, 1);
  EXPECT_EQ(r.seg, 99);
  EXPECT_EQ(r.pos, 527999);
  EXPECT_EQ(r.qid, -1);
  EXPECT_EQ(r.day, -1);

  ASSERT_EQ(parse_input_line("3,100,7,0,0,0,0,0,0,42,-1,-1,-1,-1,69", r), InputReject::none);
  EXPECT_EQ(r.qid, 42);
  EXPECT_EQ(r.day, 69);
  EXPECT_EQ(reject_of("2,100,7,0,0,0,0,0,0,43,-1,-1,-1,-1,-1"), InputReject::none);
  EXPECT_EQ(reject_of("4,100,7,0,0,0,0,0,0,44,-1,-1,-1,-1,-1"), InputReject::none);
}

TEST(InputParser, RejectsEachKindOfDamageWithItsReason) {
  const std::string ok_tail = ",-1,-1,-1,-1,-1,-1";
  EXPECT_EQ(reject_of(""), InputReject::not_integer);
  EXPECT_EQ(reject_of("0,1,2"), InputReject::field_count);
  EXPECT_EQ(reject_of("0,1,2,3,0,1,0,5,26400" + ok_tail + ",7"), InputReject::field_count);
  EXPECT_EQ(reject_of("0,1,2,3,0,1,0,5,26400,-1,-1,-1,-1,-1,"), InputReject::not_integer);
  EXPECT_EQ(reject_of("0,1,x,3,0,1,0,5,26400" + ok_tail), InputReject::not_integer);
  EXPECT_EQ(reject_of("0,1,2,3.5,0,1,0,5,26400" + ok_tail), InputReject::not_integer);
  EXPECT_EQ(reject_of("0,1,2, 3,0,1,0,5,26400" + ok_tail), InputReject::not_integer);
  EXPECT_EQ(reject_of("0,1,99999999999,3,0,1,0,5,26400" + ok_tail), InputReject::not_integer);
  EXPECT_EQ(reject_of("1,1,2,3,0,1,0,5,26400" + ok_tail), InputReject::type);
  EXPECT_EQ(reject_of("0,-1,2,3,0,1,0,5,26400" + ok_tail), InputReject::time);
  EXPECT_EQ(reject_of("0,1,-2,3,0,1,0,5,26400" + ok_tail), InputReject::carid);
  EXPECT_EQ(reject_of("0,1,2,3,-1,1,0,5,26400" + ok_tail), InputReject::xway);
  EXPECT_EQ(reject_of("0,1,2,3,0,5,0,5,26400" + ok_tail), InputReject::lane);
  EXPECT_EQ(reject_of("0,1,2,3,0,1,2,5,26400" + ok_tail), InputReject::dir);
  EXPECT_EQ(reject_of("0,1,2,3,0,1,0,100,26400" + ok_tail), InputReject::seg);
  EXPECT_EQ(reject_of("0,1,2,3,0,1,0,5,528000" + ok_tail), InputReject::pos);
  EXPECT_EQ(reject_of("2,1,2,3,0,1,0,5,26400" + ok_tail), InputReject::qid);
  EXPECT_EQ(reject_of("3,1,2,3,0,1,0,5,26400,9,-1,-1,-1,-1,0"), InputReject::day);
  EXPECT_EQ(reject_of("3,1,2,3,0,1,0,5,26400,9,-1,-1,-1,-1,70"), InputReject::day);
}

// A position report's speed only feeds the statistics: out of range (the benchmark's 0..100), the
// report is kept for its position and the speed left out (a warning). Queries do not use the
// field at all (the spec writes -1 there).
TEST(InputParser, SpeedOutOfRangeKeepsTheReportWithAWarning) {
  const std::string tail = ",0,1,0,5,26400,-1,-1,-1,-1,-1,-1";
  for (const char* speed : {"-2", "101", "-1"}) {
    SCOPED_TRACE(speed);
    InputRecord r;
    ASSERT_EQ(parse_input_line(std::string("0,70,1,") + speed + tail, r), InputReject::none);
    EXPECT_EQ(r.speed, std::stoi(speed));
    EXPECT_EQ(r.seg, 5);
    EXPECT_EQ(r.pos, 26400);
    EXPECT_EQ(input_warning(r), InputWarning::speed);
    EXPECT_FALSE(speed_in_range(r.speed));
  }
  InputRecord r;
  ASSERT_EQ(parse_input_line("0,70,1,-2" + tail, r), InputReject::none);
  EXPECT_EQ(input_warning_message(input_warning(r), r),
            "speed -2 of the position report of car 1 at time 70 is outside 0..100: the report "
            "is kept, its speed is left out of the segment statistics");
  for (const char* speed : {"0", "100"}) {
    ASSERT_EQ(parse_input_line(std::string("0,70,1,") + speed + tail, r), InputReject::none);
    EXPECT_EQ(input_warning(r), InputWarning::none);
  }
  ASSERT_EQ(parse_input_line("2,70,1,-1,-1,-1,-1,-1,-1,4,-1,-1,-1,-1,-1", r), InputReject::none);
  EXPECT_EQ(input_warning(r), InputWarning::none);
  ASSERT_EQ(parse_input_line("3,70,1,-1,0,-1,-1,-1,-1,5,-1,-1,-1,-1,3", r), InputReject::none);
  EXPECT_EQ(input_warning(r), InputWarning::none);
}

// A bad position field makes the report useless for tolls and stopped cars: an error, whose
// message names the field, its value, its range and the report.
TEST(InputParser, RejectMessagesNameTheFieldItsValueAndTheReport) {
  auto message_of = [](const std::string& line) {
    InputRecord r;
    return input_reject_message(parse_input_line(line, r), r);
  };
  EXPECT_EQ(message_of("0,40,6,50,0,1,0,20,600000,-1,-1,-1,-1,-1,-1"),
            "pos 600000 is outside 0..527999 (position report of car 6 at time 40)");
  EXPECT_EQ(message_of("0,40,6,50,0,1,0,100,26400,-1,-1,-1,-1,-1,-1"),
            "seg 100 is outside 0..99 (position report of car 6 at time 40)");
  EXPECT_EQ(message_of("0,40,6,50,-3,1,0,5,26400,-1,-1,-1,-1,-1,-1"),
            "xway -3 is negative (position report of car 6 at time 40)");
  EXPECT_EQ(message_of("3,40,6,50,0,1,0,5,26400,9,-1,-1,-1,-1,70"),
            "day 70 is outside 1..69 (daily-expenditure query of car 6 at time 40)");
  EXPECT_EQ(message_of("0,1,2"), "not 15 comma-separated fields");
}

TEST(InputParser, TallyCountsPerReasonAndKeepsTheFirstLines) {
  InputRejectTally tally;
  for (std::uint64_t line = 1; line <= 8; ++line)
    tally.add(InputReject::pos, line * 10);
  tally.add(InputReject::day, 3);
  EXPECT_EQ(tally.total(), 9u);
  EXPECT_EQ(tally.count(InputReject::pos), 8u);
  EXPECT_EQ(tally.first_lines(InputReject::pos), (std::vector<std::uint64_t>{10, 20, 30, 40, 50}));
  EXPECT_EQ(tally.first_lines(InputReject::day), (std::vector<std::uint64_t>{3}));
  EXPECT_STREQ(input_reject_name(InputReject::field_count), "field_count");
}

std::string line_of(const auto& answer) {
  char buffer[kMaxAnswerLine];
  return std::string(buffer, format_answer_line(buffer, answer));
}

TEST(AnswerFormat, LinesInTheProductFormat) {
  EXPECT_EQ(line_of(TollNotification{7, 61, 62, 30, 50}), "0,7,61,62,30,50\n");
  EXPECT_EQ(line_of(AccidentAlert{120, 121, 0, 20, 1, 11}), "1,120,121,0,20,1,11\n");
  EXPECT_EQ(line_of(BalanceAnswer{90, 91, 90, 5, 1234567890123}), "2,90,91,90,5,1234567890123\n");
  EXPECT_EQ(line_of(ExpenditureAnswer{100, 101, 3, 55}), "3,100,101,3,55\n");
  EXPECT_EQ(line_of(TollNotification{-2147483647 - 1, -2147483647 - 1, -2147483647 - 1,
                                     -2147483647 - 1, -2147483647 - 1})
                .size(),
            2u + 5 * 12);
}

}  // namespace
}  // namespace cwf::lr
