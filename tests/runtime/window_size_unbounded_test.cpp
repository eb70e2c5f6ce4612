// No size (WindowSizeUnbounded): everything still queued before the step's next bound, complete
// once everything up to that bound arrived or the step closes it; events leave only when used
// (docs/workflow-yaml.md, "Windows": "No size: everything still queued").
#include <gtest/gtest.h>

#include "window_parts_fixture.hpp"

namespace cwf {
namespace {

using testing::PartsFixture;
using V = std::vector<int>;

TEST(WindowSizeUnbounded, EverythingQueuedBeforeATokenStepsNextBound) {
  PartsFixture f("", "3 tokens");
  for (int v = 0; v < 5; ++v)
    f.add(v);
  f.cursor.k = 1;  // everything before the 6th token: still queued from the start
  EXPECT_EQ(f.select(PartsFixture::open(0)), V{});
  EXPECT_FALSE(f.ready);
  f.add(5);
  EXPECT_EQ(f.select(PartsFixture::open(0)), (V{0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(f.ready);
  EXPECT_EQ(f.sel.time, 5);
  EXPECT_FALSE(f.parts.size->bounded());
}

TEST(WindowSizeUnbounded, EverythingQueuedBeforeATimeStepsPeriodEnd) {
  PartsFixture f("", "10 ns");
  for (int t : {1, 12, 25})
    f.add(t);
  f.cursor.k = 1;
  EXPECT_EQ(f.select(PartsFixture::open(19)), V{});
  EXPECT_EQ(f.deadline, 20);
  EXPECT_EQ(f.select(PartsFixture::open(20)), (V{1, 12}));
  EXPECT_EQ(f.sel.time, 20);  // cut by time: stamped with its end
  EXPECT_EQ(*f.sel.interval, (WindowInterval{10, 20}));
}

TEST(WindowSizeUnbounded, LookingBackEverythingUpToTheSteppingEvent) {
  PartsFixture f("", "");
  for (int v = 0; v < 4; ++v)
    f.add(v);
  EXPECT_EQ(f.select_back(2), (V{0, 1, 2}));
  EXPECT_EQ(f.leaving_back(3), V{});
}

}  // namespace
}  // namespace cwf
