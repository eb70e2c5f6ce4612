// Time windows at their exact boundaries (docs/workflow-yaml.md, "Windows"): a time window is the
// half-open interval [L, L + D); it is handed out when an event at or past its end arrives, at
// its formation timeout (T x size after its end; T x step when the size is not a time), or at the
// end of input, where every window whose lower bound was reached closes; an event whose timestamp
// falls into a window that already closed is late. Each test puts an event exactly on one of
// these bounds.
#include <gtest/gtest.h>

#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::Ints;
using testing::ints;
using testing::window;
using testing::WindowHarness;

// [0, 10) holds 0 and 9; 10 is the first event of [10, 20), 20 of [20, 30).
TEST(WindowBoundary, AnEventOnATumblingBoundaryOpensTheNextWindow) {
  WindowHarness w(window("10 ns", "10 ns"));
  for (Timestamp t : {0, 9, 10, 19, 20})
    w.push(static_cast<int>(t), t);
  EXPECT_EQ(ints(w.at(20)), (Ints{{0, 9}, {10, 19}}));
  EXPECT_EQ(ints(w.end()), (Ints{{20}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 20, 30}));
  EXPECT_EQ(w.late, 0);
}

// An event exactly at a window's end closes it: no later event, no timeout, no end of input.
TEST(WindowBoundary, AnEventExactlyAtTheEndClosesTheWindow) {
  WindowHarness w(window("10 ns", "10 ns"));
  w.push(1, 1);
  EXPECT_TRUE(w.at(1).empty());
  w.push(10, 10);
  EXPECT_EQ(ints(w.at(10)), (Ints{{1}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10}));
}

// Size 10, step 5: the base is the first timestamp rounded down to the step (5), so the windows
// are [5, 15), [10, 20), [15, 25). 10 lies on the end of no window but on the start of [10, 20)
// and inside [5, 15); 15 is the end of [5, 15), so it closes that window and is not in it.
TEST(WindowBoundary, EventsOnSlidingStepBoundaries) {
  WindowHarness w(window("10 ns", "5 ns"));
  w.push(5, 5);
  w.push(10, 10);
  EXPECT_TRUE(w.at(10).empty());
  w.push(15, 15);
  EXPECT_EQ(ints(w.at(15)), (Ints{{5, 10}}));
  EXPECT_EQ(ints(w.end()), (Ints{{10, 15}, {15}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{15, 20, 25}));
}

// [0, 10) closed when 15 arrived. 10 is at its end, so it belongs to the open [10, 20): not late.
// 9 is the last instant of the closed window: late.
TEST(WindowBoundary, AnEventAtTheEndOfAClosedWindowIsNotLateOneBeforeIs) {
  WindowHarness w(window("10 ns", "10 ns"));
  w.push(1, 1);
  w.push(15, 15);
  EXPECT_EQ(ints(w.at(15)), (Ints{{1}}));
  w.push(10, 10);
  EXPECT_EQ(w.late, 0);
  w.push(9, 9);
  EXPECT_EQ(w.late, 1);
  EXPECT_EQ(ints(w.end()), (Ints{{15, 10}}));
}

// Sliding windows: the limit is the end of the last closed window, even though a later window
// that overlaps it is still open. Size 10, step 5, base 0: 12 closes [0, 10); 10 falls into the
// open [5, 15) and [10, 20) only: not late; 9 falls into the closed [0, 10): late, and kept out of
// [5, 15) too (no window holds part of a closed one's events).
TEST(WindowBoundary, SlidingLateLimitIsTheEndOfTheLastClosedWindow) {
  WindowHarness w(window("10 ns", "5 ns"));
  w.push(1, 1);
  w.push(12, 12);
  EXPECT_EQ(ints(w.at(12)), (Ints{{1}}));
  w.push(10, 10);
  EXPECT_EQ(w.late, 0);
  w.push(9, 9);
  EXPECT_EQ(w.late, 1);
  EXPECT_EQ(ints(w.end()), (Ints{{12, 10}, {12, 10}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 15, 20}));
}

// The same limit when the window closed at its formation timeout: T = 1 and size 10 close
// [0, 10) when the clock reaches 10 + 10 = 20 (the clock ran with event time: 1 arrived at 1),
// not one nanosecond earlier. Then 10 opens [10, 20) and 9 is late.
TEST(WindowBoundary, TheFormationTimeoutIsExactAndSetsTheSameLateLimit) {
  WindowHarness w(window("10 ns", "10 ns"));
  w.push(1, 1);
  EXPECT_TRUE(w.at(1).empty());
  EXPECT_EQ(w.wakeups.back(), 20);
  EXPECT_TRUE(w.at(19).empty());
  EXPECT_EQ(ints(w.at(20)), (Ints{{1}}));
  w.push(10, 10);
  w.push(9, 9);
  EXPECT_EQ(w.late, 1);
  EXPECT_EQ(ints(w.end()), (Ints{{10}}));
}

// A size that is not a time: the timeout counts in steps. Every 10 ns the first 2 tokens; the
// period [0, 10) with one token closes at 10 + 1 x 10 = 20 on the clock.
TEST(WindowBoundary, TheFormationTimeoutOfATokenSizedWindowCountsInSteps) {
  WindowHarness w(window("2 tokens", "10 ns"));
  w.push(1, 1);
  EXPECT_TRUE(w.at(1).empty());
  EXPECT_TRUE(w.at(19).empty());
  EXPECT_EQ(ints(w.at(20)), (Ints{{1}}));
}

// The last event of the input lies exactly on a step boundary: the window it starts is reached
// (its lower bound is the latest timestamp seen), so it closes at the end of input like every
// other; the event is not lost.
TEST(WindowBoundary, TheLastEventOnATumblingBoundaryGetsItsWindowAtTheEnd) {
  WindowHarness w(window("10 ns", "10 ns"));
  w.push(1, 1);
  w.push(20, 20);
  EXPECT_EQ(ints(w.at(20)), (Ints{{1}, {}}));
  EXPECT_EQ(ints(w.end()), (Ints{{20}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 20, 30}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{1, 20}));
}

TEST(WindowBoundary, TheLastEventOnASlidingBoundaryGetsItsWindowAtTheEnd) {
  // Base 0; 5 starts [5, 15) and lies inside [0, 10).
  WindowHarness w(window("10 ns", "5 ns"));
  w.push(1, 1);
  w.push(5, 5);
  EXPECT_TRUE(w.at(5).empty());
  EXPECT_EQ(ints(w.end()), (Ints{{1, 5}, {5}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 15}));
}

TEST(WindowBoundary, TheLastEventOnABoundaryOfSuppressedEmptyWindowsGetsItsWindowAtTheEnd) {
  WindowSpec spec = window("10 ns", "10 ns");
  spec.suppress_empty = true;
  WindowHarness w(spec);
  w.push(1, 1);
  w.push(30, 30);
  EXPECT_EQ(ints(w.at(30)), (Ints{{1}}));
  EXPECT_EQ(ints(w.end()), (Ints{{30}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 40}));
}

TEST(WindowBoundary, TheLastEventOnABoundaryOfATokenSizedTimeStepGetsItsWindowAtTheEnd) {
  WindowHarness w(window("2 tokens", "10 ns"));
  w.push(1, 1);
  w.push(10, 10);
  EXPECT_EQ(ints(w.at(10)), (Ints{{1}}));
  EXPECT_EQ(ints(w.end()), (Ints{{10}}));
}

// With group-by the end of input is the port's: group b's last event lies on its boundary.
TEST(WindowBoundary, TheLastEventOnABoundaryInOneGroupGetsItsWindowAtTheEnd) {
  WindowSpec spec = window("10 ns", "10 ns");
  spec.group_by = {"/k"};
  spec.suppress_empty = true;
  WindowHarness w(spec);
  w.push(Value::record({{"k", "a"}, {"v", 3}}), 3);
  w.push(Value::record({{"k", "b"}, {"v", 5}}), 5);
  w.push(Value::record({{"k", "a"}, {"v", 7}}), 7);
  w.push(Value::record({{"k", "b"}, {"v", 10}}), 10);
  // Both end at 10: b's last event arrived first.
  EXPECT_EQ(testing::show(w.at(10)), (std::vector<std::string>{"b:5", "a:3,7"}));
  EXPECT_EQ(testing::show(w.end()), (std::vector<std::string>{"b:10"}));
}

// Every 2 tokens, the last 10 ns from the step's first token: (t - 10, t]. The event 10 before
// is out of it, the one 9 before in.
TEST(WindowBoundary, ATimeSizeAfterATokenStepLooksBackOverAHalfOpenInterval) {
  WindowHarness w(window("10 ns", "2 tokens"));
  for (Timestamp t : {0, 1, 10, 11, 20, 21})
    w.push(static_cast<int>(t), t);
  EXPECT_EQ(ints(w.at(21)), (Ints{{0}, {1, 10}, {11, 20}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{0, 10, 20}));
}

// No step: the window of the event at t is (t - 10, t]. The event at t - 10 is out of it, the one
// at t - 9 in.
TEST(WindowBoundary, ATimeSizeWithoutStepLooksBackOverAHalfOpenInterval) {
  WindowHarness w(window("10 ns", ""));
  for (Timestamp t : {0, 1, 10, 11})
    w.push(static_cast<int>(t), t);
  EXPECT_EQ(ints(w.at(11)), (Ints{{0}, {0, 1}, {1, 10}, {10, 11}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{0, 1, 10, 11}));
}

}  // namespace
}  // namespace cwf

namespace cwf {
namespace {

TEST(WindowTokenStep, AnEventArrivingAfterTheWindowsThatCouldHoldItWereFinishedExpires) {
  // Size 2 tokens, step 3 tokens: window k holds the (3k)-th and (3k+1)-th arrivals, the
  // (3k+2)-th expires at the step (CWP6). The 6th arrival comes after window 1 was finished, so
  // no window can hold it: it expires then, not never.
  WindowSpec spec = testing::window("2 tokens", "3 tokens");
  spec.delete_used = true;
  WindowHarness h(spec);
  for (int i = 1; i <= 5; ++i)
    h.push(i, i);
  EXPECT_EQ(ints(h.at(0)), (Ints{{1, 2}, {4, 5}}));
  EXPECT_EQ(h.expired_tokens(), (std::vector<Value>{3}));
  h.push(6, 6);
  EXPECT_EQ(ints(h.at(0)), Ints{});
  EXPECT_EQ(h.expired_tokens(), (std::vector<Value>{3, 6}));
  EXPECT_EQ(ints(h.end()), Ints{});
  EXPECT_EQ(h.expired_tokens(), (std::vector<Value>{3, 6}));
}

}  // namespace
}  // namespace cwf
