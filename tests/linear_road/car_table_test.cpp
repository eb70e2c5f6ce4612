#include "linear_road/car_table.hpp"

#include <gtest/gtest.h>

namespace cwf::lr {
namespace {

struct State {
  int value = -1;
};

TEST(CarTable, StatesStartDefaultAndNeverMoveWhenTheTableGrows) {
  CarTable<State> table;
  EXPECT_EQ(table.find(5), nullptr);  // asking does not create
  State& first = table[5];
  EXPECT_EQ(first.value, -1);
  first.value = 7;
  // Cars far beyond the first page (replicated expressways: ids in the millions).
  for (std::int32_t carid : {20'000, 1'000'000, 2'500'000, 16'000'000})
    table[carid].value = carid;
  EXPECT_EQ(&table[5], &first);  // a reference taken before stays valid
  EXPECT_EQ(table[5].value, 7);
  ASSERT_NE(table.find(2'500'000), nullptr);
  EXPECT_EQ(table.find(2'500'000)->value, 2'500'000);
  // A car on an allocated page that was never used reads as the default state.
  ASSERT_NE(table.find(2'500'001), nullptr);
  EXPECT_EQ(table.find(2'500'001)->value, -1);
  EXPECT_EQ(table.find(5'000'000), nullptr);  // its page was never needed
}

TEST(CarTable, IdsOutsideTheDenseRangeGoToTheMap) {
  CarTable<State> table;
  table[-3].value = 1;
  table[CarTable<State>::kDenseCarids + 10].value = 2;
  ASSERT_NE(table.find(-3), nullptr);
  EXPECT_EQ(table.find(-3)->value, 1);
  EXPECT_EQ(table.find(CarTable<State>::kDenseCarids + 10)->value, 2);
  EXPECT_EQ(table.find(-4), nullptr);
}

}  // namespace
}  // namespace cwf::lr
