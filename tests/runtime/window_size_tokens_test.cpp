// The token size (WindowSizeTokens) on its own: the first N events from the step's lower bound
// (within a time step's period), complete with N events or when the step closes the window;
// without a step, the last N events up to the stepping one (docs/workflow-yaml.md, "Windows").
#include <gtest/gtest.h>

#include "window_parts_fixture.hpp"

namespace cwf {
namespace {

using testing::PartsFixture;
using V = std::vector<int>;

// "5 tokens / 3 tokens, tokens 0..10: [0..4], [3..7], [6..10]; [9, 10] at the end of input".
TEST(WindowSizeTokens, FirstNFromATokenStepsLowerBound) {
  PartsFixture f("5 tokens", "3 tokens");
  for (int v = 0; v <= 10; ++v)
    f.add(v);
  f.cursor.k = 1;
  EXPECT_EQ(f.select(PartsFixture::open(0)), (V{3, 4, 5, 6, 7}));
  EXPECT_TRUE(f.ready);
  EXPECT_TRUE(f.sel.range);  // a view of the queue
  EXPECT_EQ(f.sel.time, 7);  // its last event's timestamp
  EXPECT_FALSE(f.sel.interval);
  f.cursor.k = 3;
  EXPECT_EQ(f.select(PartsFixture::open(0)), (V{9, 10}));
  EXPECT_FALSE(f.ready);  // waits for its 5 tokens
  EXPECT_EQ(f.deadline, kNoDeadline);
  f.select(PartsFixture::ended(10));
  EXPECT_TRUE(f.ready);  // partial at the end of input
}

// "2 tokens / 10 s, events at 1, 2, 3, 12, 31 s: {1, 2}, {12}, {} (empty), {31}".
TEST(WindowSizeTokens, FirstNOfATimeStepsPeriod) {
  PartsFixture f("2 tokens", "10 ns");
  for (int t : {1, 2, 3, 12, 31})
    f.add(t);
  EXPECT_EQ(f.select(PartsFixture::open(0)), (V{1, 2}));
  EXPECT_TRUE(f.ready);  // full before the period closed
  EXPECT_FALSE(f.sel.time_closed);
  EXPECT_EQ(f.sel.time, 2);
  EXPECT_EQ(*f.sel.interval, (WindowInterval{0, 10}));
  f.cursor.k = 1;
  EXPECT_EQ(f.select(PartsFixture::open(19)), (V{12}));
  EXPECT_FALSE(f.ready);
  EXPECT_EQ(f.deadline, 20);  // closes when time passes the period's end
  EXPECT_EQ(f.select(PartsFixture::open(20)), (V{12}));
  EXPECT_TRUE(f.ready);
  EXPECT_TRUE(f.sel.time_closed);
  EXPECT_EQ(f.sel.closed_end, 20);
  f.cursor.k = 2;
  EXPECT_EQ(f.select(PartsFixture::open(31)), V{});
  EXPECT_TRUE(f.ready);
  EXPECT_EQ(f.sel.time, 30);  // an empty window is stamped with its period's end
}

TEST(WindowSizeTokens, LastNUpToTheSteppingEvent) {
  PartsFixture f("3 tokens", "");
  for (int v = 0; v < 6; ++v)
    f.add(v);
  EXPECT_EQ(f.select_back(1), (V{0, 1}));
  EXPECT_EQ(f.select_back(4), (V{2, 3, 4}));
  // After the window at arrival 4, the next (at 5) holds 3, 4, 5: 0..2 can leave.
  EXPECT_EQ(f.leaving_back(5), (V{0, 1, 2}));
  EXPECT_TRUE(f.parts.size->bounded());
  EXPECT_FALSE(f.parts.size->reaches_back_from_end());
  EXPECT_EQ(f.parts.size->time_extent(), std::nullopt);
}

}  // namespace
}  // namespace cwf
