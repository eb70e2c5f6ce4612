// The token step (WindowStepTokens) on its own: window k's lower bound is the group's (k*N)-th
// event, its next bound the ((k+1)*N)-th; it closes only at the end of input; with a time size it
// looks back from the (k*N)-th event instead (docs/workflow-yaml.md, "Windows").
#include <gtest/gtest.h>

#include "window_parts_fixture.hpp"

namespace cwf {
namespace {

using testing::PartsFixture;

TEST(WindowStepTokens, WindowKStartsAtTheKTimesNthEvent) {
  PartsFixture f("5 tokens", "3 tokens");
  for (int v = 0; v < 7; ++v)
    f.add(v * 10, v);
  f.cursor.k = 2;
  WindowPlace place = f.place();
  ASSERT_TRUE(f.placed);
  EXPECT_EQ(place.seq_from, 6u);
  EXPECT_EQ(place.seq_to, 9u);
  EXPECT_EQ(place.first, 6u);  // the queue holds arrivals 0..6: the 7th entry
  EXPECT_TRUE(place.dense);    // nothing gone: a range of the queue
  // The timestamp a duration size starts at: the event at the lower bound's.
  EXPECT_EQ(f.parts.step->start_time(f.group, place), 6);
  EXPECT_FALSE(place.missing_first);
  EXPECT_FALSE(place.period());  // no period: not cut by time
}

TEST(WindowStepTokens, LowerBoundNotReachedBeforeItsEventArrives) {
  PartsFixture f("5 tokens", "3 tokens");
  for (int v = 0; v < 6; ++v)
    f.add(v);
  f.cursor.k = 2;  // starts at the 6th arrival; arrivals 0..5 are in
  f.place();
  EXPECT_FALSE(f.placed);
  f.add(6);
  f.place();
  EXPECT_TRUE(f.placed);
}

TEST(WindowStepTokens, NextBoundReachedOnceTheNextWindowsFirstEventArrived) {
  PartsFixture f("", "3 tokens");
  for (int v = 0; v < 3; ++v)
    f.add(v);
  f.cursor.k = 0;
  WindowPlace place = f.place();
  EXPECT_TRUE(f.parts.step->next_bound_reached(f.group, place, PartsFixture::open(0)));
  f.cursor.k = 1;
  f.add(3);
  place = f.place();
  EXPECT_FALSE(f.parts.step->next_bound_reached(f.group, place, PartsFixture::open(0)));
}

TEST(WindowStepTokens, ClosesOnlyAtTheEndOfInput) {
  PartsFixture f("5 tokens", "3 tokens");
  f.add(0);
  WindowPlace place = f.place();
  StepClosing open = f.parts.step->closing(place, PartsFixture::open(1000));
  EXPECT_FALSE(open.closed);
  EXPECT_EQ(open.end, kNoDeadline);
  StepClosing end = f.parts.step->closing(place, PartsFixture::ended(0));
  EXPECT_TRUE(end.closed);
  EXPECT_FALSE(end.by_time);
}

TEST(WindowStepTokens, ExpiryBoundIsTheArrivalNumberAlone) {
  PartsFixture f("2 tokens", "5 tokens");
  f.cursor.k = 2;
  WindowPlace bounds = f.bounds();
  EXPECT_EQ(bounds.seq_from, 10u);
  EXPECT_TRUE(bounds.by_arrival_only());
}

// Dissertation 3.2.2, combination 5: "the step as 1 token and the size as 5 seconds".
TEST(WindowStepTokens, LooksBackWithATimeSizeOnly) {
  EXPECT_TRUE(PartsFixture("10 s", "2 tokens").parts.step->looks_back());
  EXPECT_FALSE(PartsFixture("5 tokens", "2 tokens").parts.step->looks_back());
  EXPECT_FALSE(PartsFixture("2 waves", "1 token").parts.step->looks_back());
  EXPECT_FALSE(PartsFixture("", "2 tokens").parts.step->looks_back());
  // Window k ends at the (k*N)-th token: the 1st, 3rd, 5th, ... for N = 2.
  WindowCursor cursor;
  cursor.k = 3;
  EXPECT_EQ(PartsFixture("10 s", "2 tokens").parts.step->stepping_seq(cursor), 6u);
  // Folded, the window being formed is window 0 and still ends at the 6th; 3 tokens on, the next.
  PartsFixture("10 s", "2 tokens").parts.step->fold(cursor);
  EXPECT_EQ(cursor.k, 0u);
  EXPECT_EQ(cursor.origin, 6u);
  cursor.k = 1;
  EXPECT_EQ(PartsFixture("10 s", "3 tokens").parts.step->stepping_seq(cursor), 9u);
}

// Looking back, a window whose stepping event is no longer queued is empty and, not shown, passed
// over, as is every one up to the window stepping at or after the next queued event: the group
// goes there at once, however far that is (a checkpoint can put a window any distance behind).
TEST(WindowStepTokens, EmptyWindowsLookingBackArePassedAtOnce) {
  constexpr std::uint64_t kLast = 999'999'999'999'999;  // 3 x 333,333,333,333,333
  WindowSpec spec = testing::window("5 ns", "3 tokens");
  spec.suppress_empty = true;  // else every empty window is handed out, one at a time
  PartsFixture f(spec);
  // Token 1 (at time 1) is the 6th arrival, not a stepping one; token 4 (at 4) steps window
  // kLast / 3, which looks back 5 ns and holds both.
  f.restore_behind(0, kLast + 1, {{5, 1}, {kLast, 4}});
  EXPECT_EQ(f.next_window(), (std::vector<int>{1, 4}));
  f.group.finish(false, [](Event&&) {});
  EXPECT_EQ(f.next_window(), std::vector<int>{});  // the next stepping event has not arrived
  EXPECT_TRUE(f.expired.empty());
}

}  // namespace
}  // namespace cwf
