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

// The window of an event that is no longer queued is empty and passed over, as is every one up to
// the next queued event's: however many there are, the group goes there at once (a checkpoint
// can put a group's window any distance behind its arrivals).
TEST(WindowStepEveryEvent, EmptyWindowsUpToTheNextQueuedEventArePassedAtOnce) {
  constexpr std::uint64_t kFar = std::uint64_t{1} << 62;
  PartsFixture nothing_queued("3 tokens", "");
  nothing_queued.restore_behind(0, kFar, {});
  EXPECT_EQ(nothing_queued.next_window(), std::vector<int>{});  // waits for the next event
  nothing_queued.group.add(Event{Value(7), 7, WaveTag()}, nothing_queued.port_arrivals++);
  EXPECT_EQ(nothing_queued.next_window(), std::vector<int>{7});  // event kFar's window

  PartsFixture queued("3 tokens", "");
  queued.restore_behind(0, kFar + 3, {{kFar, 1}, {kFar + 1, 2}, {kFar + 2, 3}});
  EXPECT_EQ(queued.next_window(), std::vector<int>{1});
  queued.group.finish(false, [](Event&&) {});
  EXPECT_EQ(queued.next_window(), (std::vector<int>{1, 2}));
  EXPECT_TRUE(queued.expired.empty());
}

}  // namespace
}  // namespace cwf
