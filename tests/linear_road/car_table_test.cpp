#include "linear_road/car_table.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/snapshot/snapshot_error.hpp"

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

TEST(CarTable, ACheckpointRestoresEveryCarAndLeavesUnusedPagesUnallocated) {
  CarTable<State> table;
  for (std::int32_t carid : {5, 20'000, 2'500'000, -3, CarTable<State>::kDenseCarids + 10})
    table[carid].value = carid % 1000;
  SnapshotWriter out;
  table.save(out);
  std::vector<std::uint8_t> bytes = out.take_bytes();

  CarTable<State> restored;
  restored[7].value = 99;  // what a table held before is replaced, not merged
  SnapshotReader in(bytes);
  restored.restore(in);
  EXPECT_TRUE(in.at_end());
  for (std::int32_t carid : {5, 20'000, 2'500'000, -3, CarTable<State>::kDenseCarids + 10}) {
    ASSERT_NE(restored.find(carid), nullptr) << carid;
    EXPECT_EQ(restored.find(carid)->value, carid % 1000) << carid;
  }
  EXPECT_EQ(restored.find(7)->value, -1);        // on car 5's page, never used
  EXPECT_EQ(restored.find(5'000'000), nullptr);  // its page was never needed
  EXPECT_EQ(restored.find(-4), nullptr);
}

struct WiderState {
  std::int64_t value = -1;
};

TEST(CarTable, ACheckpointOfStatesOfAnotherSizeIsRefused) {
  CarTable<State> table;
  table[1].value = 1;
  SnapshotWriter out;
  table.save(out);
  std::vector<std::uint8_t> bytes = out.take_bytes();
  CarTable<WiderState> other;
  SnapshotReader in(bytes);
  try {
    other.restore(in);
    FAIL() << "restored from records of another size";
  } catch (const SnapshotError& e) {
    EXPECT_NE(std::string(e.what()).find("its records are 4 bytes, this build's are 8"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cwf::lr
