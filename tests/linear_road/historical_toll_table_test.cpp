#include "linear_road/historical_toll_table.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace cwf::lr {
namespace {

TEST(HistoricalTollTable, LoadsRowsAndCountsMalformedOnes) {
  std::string path = ::testing::TempDir() + "cwf_lr_historical_tolls.dat";
  std::ofstream(path) << "0,1,0,10\n"
                         "0,69,2,99\n"
                         "5,3,1,42\n"
                         "5,70,1,42\n"     // day out of range
                         "5,3,1\n"         // three fields
                         "x,3,1,42\n"      // not a number
                         "123456,2,0,17";  // no final newline
  HistoricalTollTable table;
  HistoricalTollTable::LoadResult result = table.load(path);
  EXPECT_TRUE(result.opened);
  EXPECT_EQ(result.error, "");
  EXPECT_EQ(result.rows, 4u);
  EXPECT_EQ(result.malformed, 3u);
  EXPECT_EQ(result.first_malformed_lines, (std::vector<std::uint64_t>{4, 5, 6}));
  EXPECT_EQ(table.lookup(0, 1, 0), 10);
  EXPECT_EQ(table.lookup(0, 69, 2), 99);
  EXPECT_EQ(table.lookup(5, 3, 1), 42);
  EXPECT_EQ(table.lookup(5, 3, 0), std::nullopt);  // asked about another expressway
  EXPECT_EQ(table.lookup(5, 4, 1), std::nullopt);
  EXPECT_EQ(table.lookup(123456, 2, 0), 17);
  EXPECT_EQ(table.lookup(999999, 2, 0), std::nullopt);
  EXPECT_EQ(table.lookup(-1, 2, 0), std::nullopt);
}

TEST(HistoricalTollTable, MissingFileIsAnError) {
  HistoricalTollTable table;
  HistoricalTollTable::LoadResult result = table.load("/nonexistent/historical-tolls.dat");
  EXPECT_FALSE(result.opened);
  EXPECT_NE(result.error, "");
}

}  // namespace
}  // namespace cwf::lr
