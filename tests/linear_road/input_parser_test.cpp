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
  EXPECT_EQ(reject_of("0,1,2,101,0,1,0,5,26400" + ok_tail), InputReject::speed);
  EXPECT_EQ(reject_of("0,1,2,3,-1,1,0,5,26400" + ok_tail), InputReject::xway);
  EXPECT_EQ(reject_of("0,1,2,3,0,5,0,5,26400" + ok_tail), InputReject::lane);
  EXPECT_EQ(reject_of("0,1,2,3,0,1,2,5,26400" + ok_tail), InputReject::dir);
  EXPECT_EQ(reject_of("0,1,2,3,0,1,0,100,26400" + ok_tail), InputReject::seg);
  EXPECT_EQ(reject_of("0,1,2,3,0,1,0,5,528000" + ok_tail), InputReject::pos);
  EXPECT_EQ(reject_of("2,1,2,3,0,1,0,5,26400" + ok_tail), InputReject::qid);
  EXPECT_EQ(reject_of("3,1,2,3,0,1,0,5,26400,9,-1,-1,-1,-1,0"), InputReject::day);
  EXPECT_EQ(reject_of("3,1,2,3,0,1,0,5,26400,9,-1,-1,-1,-1,70"), InputReject::day);
}

TEST(InputParser, TallyCountsPerReasonAndKeepsTheFirstLines) {
  InputRejectTally tally;
  for (std::uint64_t line = 1; line <= 8; ++line)
    tally.add(InputReject::speed, line * 10);
  tally.add(InputReject::day, 3);
  EXPECT_EQ(tally.total(), 9u);
  EXPECT_EQ(tally.count(InputReject::speed), 8u);
  EXPECT_EQ(tally.first_lines(InputReject::speed),
            (std::vector<std::uint64_t>{10, 20, 30, 40, 50}));
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
