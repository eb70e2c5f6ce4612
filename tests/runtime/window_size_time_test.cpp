// The time size (WindowSizeTime) on its own: the events in [t0, t0 + D) from the step's start t0,
// closed by time at t0 + D; looking back from a stepping event at t, the events in (t - D, t]
// (docs/workflow-yaml.md, "Windows" and "Window bounds").
#include <gtest/gtest.h>

#include "window_parts_fixture.hpp"

namespace cwf {
namespace {

using testing::PartsFixture;
using V = std::vector<int>;

TEST(WindowSizeTime, DFromATimeStepsLowerBound) {
  PartsFixture f("30 ns", "10 ns");
  for (int t : {1, 5, 12, 25, 31, 40, 41})
    f.add(t);
  f.cursor.k = 1;                                    // [10, 40)
  EXPECT_EQ(f.select(PartsFixture::open(39)), V{});  // not closed: nothing is selected yet
  EXPECT_FALSE(f.ready);
  EXPECT_EQ(f.deadline, 40);
  EXPECT_EQ(f.select(PartsFixture::open(40)), (V{12, 25, 31}));
  EXPECT_TRUE(f.ready);
  EXPECT_EQ(f.sel.time, 40);  // a time window's time is its end
  EXPECT_EQ(*f.sel.interval, (WindowInterval{10, 40}));
  EXPECT_TRUE(f.sel.time_closed);
  EXPECT_EQ(f.sel.closed_end, 40);
}

// "10 s / 1 wave: wave 1 at 1, 5, 14 s; wave 2 at 12, 13 s; wave 3 at 15 s:
// [1, 11) = {1, 5}, [12, 22) = {12, 13, 15}, [15, 25) = {15}".
TEST(WindowSizeTime, DFromTheFirstEventOfAWaveStep) {
  PartsFixture f("10 ns", "1 wave");
  f.add(1, 1, WaveTag(1, 1));
  f.add(5, 5, WaveTag(1, 1));
  f.add(12, 12, WaveTag(2, 1));
  f.add(13, 13, WaveTag(2, 1));
  f.add(14, 14, WaveTag(1, 1));
  f.add(15, 15, WaveTag(3, 1));
  const std::vector<V> expected = {{1, 5}, {12, 13, 15}, {15}};
  const std::vector<WindowInterval> intervals = {{1, 11}, {12, 22}, {15, 25}};
  for (std::uint64_t k = 0; k < 3; ++k) {
    f.cursor.k = k;
    EXPECT_EQ(f.select(PartsFixture::ended(15)), expected[k]) << k;
    EXPECT_EQ(*f.sel.interval, intervals[k]);
  }
}

// "10 s / 2 tokens, events at 0, 3, 6, 9, 12, 15, 20 s: [0], [0, 3, 6], [3..12], [12, 15, 20]".
TEST(WindowSizeTime, LooksBackFromTheSteppingEvent) {
  PartsFixture f("10 ns", "2 tokens");
  for (int t : {0, 3, 6, 9, 12, 15, 20})
    f.add(t);
  EXPECT_TRUE(f.parts.size->reaches_back_from_end());
  EXPECT_EQ(f.parts.size->time_extent(), 10);
  EXPECT_EQ(f.select_back(0), (V{0}));
  EXPECT_EQ(f.select_back(2), (V{0, 3, 6}));
  EXPECT_EQ(f.select_back(4), (V{3, 6, 9, 12}));
  EXPECT_EQ(*f.sel.interval, (WindowInterval{2, 12, true}));  // (t - D, t]
  // The next window ends at 20 or later: it reaches back no further than (2, 12], so 0 leaves.
  EXPECT_EQ(f.leaving_back(6), (V{0}));
  EXPECT_EQ(f.select_back(6), (V{12, 15, 20}));
  EXPECT_EQ(f.leaving_back(8), (V{0, 3, 6, 9}));
}

}  // namespace
}  // namespace cwf
