// The wave size (WindowSizeWaves) on its own: N consecutive waves from the lower bound's wave
// (the events of them at or past the lower bound), complete when those waves are or at the end
// of input; without a step, the waves of the last N up to the stepping event's
// (docs/workflow-yaml.md, "Windows").
#include <gtest/gtest.h>

#include "window_parts_fixture.hpp"

namespace cwf {
namespace {

using testing::PartsFixture;
using V = std::vector<int>;

WaveTag w(int n) {
  return WaveTag(n, 1);
}

// "2 waves / 1 token: for each token, the events from it on of its wave and the next one, once
// both are complete".
TEST(WindowSizeWaves, NWavesFromTheWaveOfATokenStepsLowerBound) {
  PartsFixture f("2 waves", "1 token");
  f.add(10, 1, w(1));
  f.add(20, 2, w(2));
  f.add(11, 3, w(1));
  f.add(30, 4, w(3));
  f.add(21, 5, w(2));
  f.cursor.k = 1;  // token 20: waves 2 and 3
  EXPECT_EQ(f.select(PartsFixture::open(0)), V{});
  EXPECT_FALSE(f.ready);  // waits for both waves
  f.group.wave_complete(w(2));
  f.group.wave_complete(w(3));
  EXPECT_EQ(f.select(PartsFixture::open(0)), (V{20, 30, 21}));
  EXPECT_TRUE(f.ready);
  EXPECT_EQ(f.sel.time, 5);  // the last event's timestamp
  f.cursor.k = 2;            // token 11, of wave 1: its events from it on, and wave 2's from it on
  EXPECT_EQ(f.select(PartsFixture::ended(5)), (V{11, 21}));
  EXPECT_TRUE(f.ready);  // the end of input closes it, wave 1 incomplete or not
}

// "1 wave / 10 s: wave 1 at 1, 3 s; wave 2 at 12, 14 s; incomplete wave 3 at 15 s; wave 4 at
// 31 s: {1, 3}, {12, 14}, {} (15 expired), {31}".
TEST(WindowSizeWaves, FirstWaveOfATimeStepsPeriod) {
  PartsFixture f("1 wave", "10 ns");
  f.add(1, 1, w(1));
  f.add(3, 3, w(1));
  f.add(12, 12, w(2));
  f.add(14, 14, w(2));
  f.add(15, 15, w(3));
  f.add(31, 31, w(4));
  for (int n : {1, 2})
    f.group.wave_complete(w(n));
  EXPECT_EQ(f.select(PartsFixture::open(31)), (V{1, 3}));
  EXPECT_EQ(*f.sel.interval, (WindowInterval{0, 10}));
  EXPECT_TRUE(f.sel.time_closed);
  f.cursor.k = 1;
  EXPECT_EQ(f.select(PartsFixture::open(31)), (V{12, 14}));
  f.cursor.k = 3;
  EXPECT_EQ(f.select(PartsFixture::open(31)), V{});
  EXPECT_FALSE(f.ready);  // [30, 40) waits for wave 4, not for the period to close
  EXPECT_EQ(f.deadline, kNoDeadline);
  f.group.wave_complete(w(4));
  EXPECT_EQ(f.select(PartsFixture::open(31)), (V{31}));
  EXPECT_TRUE(f.ready);
  EXPECT_FALSE(f.sel.time_closed);
  EXPECT_EQ(f.sel.time, 31);
  f.cursor.k = 2;
  EXPECT_EQ(f.select(PartsFixture::open(25)), V{});
  EXPECT_FALSE(f.ready);  // no wave in [20, 30): empty once the period closed
  EXPECT_EQ(f.deadline, 30);
  f.select(PartsFixture::open(30));
  EXPECT_TRUE(f.ready);
  EXPECT_EQ(f.sel.time, 30);
}

TEST(WindowSizeWaves, WavesOfTheLastNUpToTheSteppingEvent) {
  PartsFixture f("2 waves", "");
  f.add(10, 1, w(1));
  f.add(20, 2, w(2));
  f.add(11, 3, w(1));
  f.add(30, 4, w(3));
  EXPECT_EQ(f.select_back(1), (V{10, 20}));  // waves 1 and 2, up to token 20
  EXPECT_EQ(f.select_back(2), (V{10, 11}));  // token 11 is of wave 1: no wave before it
  EXPECT_EQ(f.select_back(3), (V{20, 30}));  // waves 2 and 3
  // The next window's stepping event is of wave 3 or later: wave 1 can leave.
  EXPECT_EQ(f.leaving_back(4), (V{10, 11}));
}

}  // namespace
}  // namespace cwf
