// Time steps and sizes: closing by a later event, by the formation timeout and at the end of
// input; late events; empty windows; the seed's Figure 9 example.
#include <gtest/gtest.h>

#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::Ints;
using testing::ints;
using testing::window;
using testing::WindowHarness;

constexpr Timestamp kMin = 60 * kSecond;

bool two_or_more(std::span<const Event> events) {
  return events.size() >= 2;
}

// 3.2.2.2: trigger A when two events occur within 5 minutes: size 5 min, step 1 min, precondition
// "at least two events", delete used. a at 0, b at 6, c at 8: A fires once, on {b, c}.
TEST(WindowTime, Figure9StepByStep) {
  WindowSpec spec = window("5 min", "1 min");
  spec.delete_used = true;
  WindowHarness w(spec);
  w.push("a", 0);
  w.advance(0, false);  // a arrives at 0 on the clock: the clock runs with event time
  // Window [0, 5) waits for an event at or past 5 min, or its timeout (5 + 1 x 5 min).
  w.advance(1 * kMin, false);
  EXPECT_FALSE(w.has_window());
  EXPECT_EQ(w.wakeups.back(), 10 * kMin);
  std::vector<std::vector<Value>> fired;
  auto actor = [&](std::span<const Event> events) {
    if (!two_or_more(events)) return false;
    fired.emplace_back();
    for (const Event& e : events)
      fired.back().push_back(e.token);
    return true;
  };
  // b at 6 closes [0, 5) = {a} and [1, 6) = {}: no action; a can be in no later window.
  w.push("b", 6 * kMin);
  auto windows = w.at(6 * kMin, false, actor);
  EXPECT_EQ(windows, (std::vector<std::vector<Value>>{{"a"}, {}}));
  EXPECT_EQ(w.expired_tokens(), (std::vector<Value>{"a"}));
  // c at 8 closes [2, 7) = {b} and [3, 8) = {b}: still one event each.
  w.push("c", 8 * kMin);
  windows = w.at(8 * kMin, false, actor);
  EXPECT_EQ(windows, (std::vector<std::vector<Value>>{{"b"}, {"b"}}));
  EXPECT_TRUE(fired.empty());
  // [4, 9) = {b, c} closes at its formation timeout (9 + 5 min): A fires and consumes b and c,
  // so the windows after it hold nothing.
  windows = w.at(14 * kMin, false, actor);
  EXPECT_EQ(windows.front(), (std::vector<Value>{"b", "c"}));
  EXPECT_EQ(fired, (std::vector<std::vector<Value>>{{"b", "c"}}));
  windows = w.end(actor);
  for (const auto& window : windows)
    EXPECT_TRUE(window.empty());
  EXPECT_EQ(fired.size(), 1u);
  EXPECT_EQ(w.expired_tokens(), (std::vector<Value>{"a"}));  // b and c were used up
  EXPECT_EQ(w.buffered(), 0u);
}

TEST(WindowTime, Figure9WithoutStepFiresOnTheEventThatCompletesThePair) {
  WindowSpec spec = window("5 min", "");
  spec.delete_used = true;
  WindowHarness w(spec);
  w.push("a", 0);
  w.push("b", 6 * kMin);
  w.push("c", 8 * kMin);
  auto windows = w.at(8 * kMin, false, two_or_more);
  EXPECT_EQ(windows, (std::vector<std::vector<Value>>{{"a"}, {"b"}, {"b", "c"}}));
  EXPECT_EQ(w.expired_tokens(), (std::vector<Value>{"a"}));
}

TEST(WindowTime, TumblingClosesWhenAnEventPastTheEndArrives) {
  WindowHarness w(window("10 ns", "10 ns"));
  for (Timestamp t : {1, 3, 12, 25})
    w.push(static_cast<int>(t), t);
  EXPECT_EQ(ints(w.at(25)), (Ints{{1, 3}, {12}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 20}));  // window time: the window's end
  EXPECT_EQ(ints(w.end()), (Ints{{25}}));
}

TEST(WindowTime, SlidingWindowsOverlap) {
  WindowHarness w(window("10 ns", "5 ns"));
  for (Timestamp t : {1, 6, 11, 16})
    w.push(static_cast<int>(t), t);
  EXPECT_EQ(ints(w.at(16)), (Ints{{1, 6}, {6, 11}}));
  EXPECT_EQ(ints(w.end()), (Ints{{11, 16}, {16}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 15, 20, 25}));
}

TEST(WindowTime, FormationTimeoutClosesASparseWindowAndLaterEventsInsideAreLate) {
  WindowSpec spec = window("10 ns", "10 ns");
  spec.timeout = 2;  // closes 2 x 10 ns after its end at the latest
  WindowHarness w(spec);
  w.push(1, 1);
  EXPECT_TRUE(w.at(1).empty());  // arrives at 1 on the clock
  EXPECT_TRUE(w.at(5).empty());
  EXPECT_EQ(w.wakeups.back(), 30);
  EXPECT_TRUE(w.at(29).empty());
  EXPECT_EQ(ints(w.at(30)), (Ints{{1}}));
  w.push(7, 7);  // inside the closed window [0, 10)
  EXPECT_EQ(w.late, 1);
  w.push(12, 12);
  EXPECT_EQ(ints(w.end()), (Ints{{12}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{1, 12}));
}

TEST(WindowTime, TheTimeoutRunsFromArrivalSoReplayedOldDataDoesNotTimeOutAtOnce) {
  // Data from long ago, replayed now: the clock is far ahead of the events' timestamps. The
  // formation timeout counts from when the stream could have closed the window, not from the
  // window's end in event time (which is long past on the clock).
  WindowSpec spec = window("10 ns", "10 ns");
  spec.timeout = 2;
  WindowHarness w(spec);
  constexpr Timestamp kNow = 1'000'000;
  w.push(1, 1);
  EXPECT_TRUE(w.at(kNow).empty());             // arrived at kNow: [0, 10) is still forming
  EXPECT_EQ(w.wakeups.back(), kNow - 1 + 30);  // its timeout, mapped onto the clock
  w.push(4, 4);
  EXPECT_TRUE(w.at(kNow + 3).empty());
  EXPECT_EQ(ints(w.at(kNow - 1 + 30)), (Ints{{1, 4}}));  // the stream stalled: timeout
  EXPECT_EQ(w.late, 0);
}

TEST(WindowTime, TheClockClosesNothingBeforeThePortsFirstEvent) {
  // A join's second input runs (the first input woke the actor) before any event reached it: the
  // clock says nothing about the event time of a stream it has not seen yet. Read as event time,
  // today's clock would close every window up to now less the timeout, and the stream's events,
  // stamped from its own data, would all be late.
  WindowSpec spec = window("10 ns", "10 ns");
  spec.suppress_empty = true;
  WindowHarness w(spec);
  constexpr Timestamp kNow = 1'000'000;
  EXPECT_TRUE(w.at(kNow).empty());
  w.push(3, 3);
  w.push(5, 5);
  w.push(14, 14);
  EXPECT_EQ(ints(w.at(kNow + 1)), (Ints{{3, 5}}));
  w.push(27, 27);
  EXPECT_EQ(w.late, 0);
  EXPECT_EQ(ints(w.end()), (Ints{{14}, {27}}));
}

TEST(WindowTime, EventsBehindTheLatestEventAreLateOnlyWhenTheirWindowClosed) {
  WindowHarness w(window("10 ns", "10 ns"));
  w.push(5, 5);
  w.push(3, 3);  // out of order, but [0, 10) is still open
  w.push(15, 15);
  EXPECT_EQ(ints(w.at(15)), (Ints{{5, 3}}));
  w.push(8, 8);  // [0, 10) closed when 15 arrived
  w.push(11, 11);
  EXPECT_EQ(w.late, 1);
  EXPECT_EQ(ints(w.end()), (Ints{{15, 11}}));
}

TEST(WindowTime, AnEventIsLateForEveryWindowALaterEventClosedEvenBeforeTheyAreTakenIn) {
  // The same when the receiver takes the events in before evaluating any window (one drain of a
  // director that let them pile up): 25 closed [0, 10) and [10, 20), so 15 is late, whether or
  // not those windows were handed to the actor yet.
  WindowHarness w(window("10 ns", "10 ns"));
  w.push(5, 5);
  w.push(12, 12);
  w.push(25, 25);
  w.push(15, 15);
  EXPECT_EQ(w.late, 1);
  EXPECT_EQ(ints(w.end()), (Ints{{5}, {12}, {25}}));
}

TEST(WindowTime, EmptyWindowsAreProducedUnlessSuppressed) {
  {
    WindowHarness w(window("10 ns", "10 ns"));
    w.push(1, 1);
    w.push(45, 45);
    EXPECT_EQ(ints(w.at(45)), (Ints{{1}, {}, {}, {}}));
    EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 20, 30, 40}));
    EXPECT_EQ(ints(w.end()), (Ints{{45}}));
  }
  {
    WindowSpec spec = window("10 ns", "10 ns");
    spec.suppress_empty = true;
    WindowHarness w(spec);
    w.push(1, 1);
    w.push(45, 45);
    EXPECT_EQ(ints(w.at(45)), (Ints{{1}}));
    EXPECT_EQ(ints(w.end()), (Ints{{45}}));
    EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 50}));
  }
}

// Combination 2: every 10 ns, the first 2 tokens of the period; the rest of the period expires.
TEST(WindowTime, TimeStepTokenSize) {
  WindowHarness w(window("2 tokens", "10 ns"));
  for (Timestamp t : {1, 2, 3, 12, 31})
    w.push(static_cast<int>(t), t);
  EXPECT_EQ(ints(w.at(31)), (Ints{{1, 2}, {12}, {}}));
  EXPECT_EQ(ints(w.end()), (Ints{{31}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{1, 2, 3, 12, 31}));
}

// Combination 5: every 2 tokens, the last 10 ns (the dissertation's combination 5, "the last 5
// seconds worth of data, for each token"): the window ends at the step's first token, (t - 10, t],
// and is ready when that token arrives.
TEST(WindowTime, TokenStepTimeSize) {
  WindowHarness w(window("10 ns", "2 tokens"));
  for (Timestamp t : {0, 3, 6, 9, 12, 15, 20})
    w.push(static_cast<int>(t), t);
  EXPECT_EQ(ints(w.at(20)), (Ints{{0}, {0, 3, 6}, {3, 6, 9, 12}, {12, 15, 20}}));
  EXPECT_EQ(ints(w.end()), (Ints{}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{0, 6, 12, 20}));
  // What no later window can hold leaves oldest first.
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 3, 6, 9}));
}

// Without a step, events that leave several at a time leave oldest first too (CWP6).
TEST(WindowTime, LookingBackExpiresOldestFirst) {
  WindowHarness w(window("10 ns", ""));
  for (Timestamp t : {0, 1, 2, 20})
    w.push(static_cast<int>(t), t);
  EXPECT_EQ(ints(w.at(20)), (Ints{{0}, {0, 1}, {0, 1, 2}, {20}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 1, 2}));
}

TEST(WindowTime, TimeStepWithoutSizeAccumulatesUntilUsed) {
  WindowSpec spec = window("", "10 ns");
  spec.delete_used = true;
  WindowHarness w(spec);
  for (Timestamp t : {1, 5, 12, 25})
    w.push(static_cast<int>(t), t);
  auto three = [](std::span<const Event> events) { return events.size() >= 3; };
  EXPECT_EQ(ints(w.at(25, false, three)), (Ints{{1, 5}, {1, 5, 12}}));
  EXPECT_EQ(ints(w.end(three)), (Ints{{25}}));
}

}  // namespace
}  // namespace cwf
