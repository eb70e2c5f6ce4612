// No step (WindowStepEveryEvent): window k is formed when the group's k-th event arrives and
// looks back from it, whatever the size (docs/workflow-yaml.md, "Windows": "Without a step, the
// window of the k-th event looks back from it").
#include <gtest/gtest.h>

#include "window_parts_fixture.hpp"

namespace cwf {
namespace {

using testing::PartsFixture;

TEST(WindowStepEveryEvent, EveryEventEndsAWindowThatLooksBack) {
  for (const char* size : {"3 tokens", "5 s", "2 waves", ""}) {
    PartsFixture f(size, "");
    EXPECT_TRUE(f.parts.step->looks_back()) << size;
    WindowCursor cursor;
    EXPECT_EQ(f.parts.step->stepping_seq(cursor), 0u);
    cursor.k = 7;
    EXPECT_EQ(f.parts.step->stepping_seq(cursor), 7u);
    f.parts.step->fold(cursor);  // the k-th event stays the k-th: nothing to fold
    EXPECT_EQ(cursor.k, 7u);
    EXPECT_EQ(f.parts.step->stepping_seq(cursor), 7u);
  }
}

TEST(WindowStepEveryEvent, HasNoLowerBoundAndClosesOnlyAtTheEnd) {
  PartsFixture f("3 tokens", "");
  f.add(0);
  f.place();
  EXPECT_FALSE(f.placed);
  WindowPlace bounds = f.bounds();
  EXPECT_TRUE(bounds.by_arrival_only());
  EXPECT_EQ(bounds.seq_from, 0u);
  EXPECT_FALSE(f.parts.step->watches_arrivals());
}

}  // namespace
}  // namespace cwf
