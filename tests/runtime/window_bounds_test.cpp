// The bounds a window reports (Window::interval, start(), end()): the interval of a window cut by
// time, for every size/step combination that has one, and the first and last event's timestamps
// for the others (docs/workflow-yaml.md, "Windows").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::window;
using testing::WindowHarness;

// "[s, e) {tokens}" for a window with an interval ("(s, e]" when closed at its end), "s..e {..}"
// for one bounded by its events, "- {}" for neither; times in seconds.
std::string describe(const Window& w) {
  auto seconds = [](Timestamp t) { return std::to_string(t / kSecond); };
  std::string out;
  if (w.interval)
    out = (w.interval->closed_at_end ? "(" : "[") + seconds(w.interval->start) + ", " +
          seconds(w.interval->end) + (w.interval->closed_at_end ? "]" : ")");
  else if (w.start())
    out = seconds(*w.start()) + ".." + seconds(*w.end());
  else
    out = "-";
  out += " {";
  for (std::size_t i = 0; i < w.events.size(); ++i)
    out += (i ? "," : "") + std::to_string(w.events[i].token.as_int());
  return out + "}";
}

// Pushes one event per time (its token is its time in seconds) and takes every window up to the
// end of input.
std::vector<std::string> bounds(const WindowSpec& spec, const std::vector<int>& seconds) {
  WindowHarness w(spec);
  std::vector<std::string> out;
  auto take = [&] {
    while (w.has_window()) {
      out.push_back(describe(w.front_window()));
      w.finish_window(true, true);
    }
  };
  for (int s : seconds) {
    w.push(s, s * kSecond);
    w.advance(s * kSecond, false);
    take();
  }
  w.advance(0, true);
  take();
  return out;
}

using Lines = std::vector<std::string>;

TEST(WindowBounds, ATumblingTimeWindowIsItsPeriodEvenWhenEmpty) {
  EXPECT_EQ(bounds(window("10 s", "10 s"), {3, 7, 27}),
            (Lines{"[0, 10) {3,7}", "[10, 20) {}", "[20, 30) {27}"}));
  // The first period starts at the first event rounded down to a multiple of the step.
  EXPECT_EQ(bounds(window("10 s", "10 s"), {43, 51}), (Lines{"[40, 50) {43}", "[50, 60) {51}"}));
}

TEST(WindowBounds, ASlidingTimeWindowIsLowerBoundPlusSize) {
  EXPECT_EQ(bounds(window("10 s", "5 s"), {1, 7, 12}),
            (Lines{"[0, 10) {1,7}", "[5, 15) {7,12}", "[10, 20) {12}"}));
}

TEST(WindowBounds, ATimeStepWithoutSizeIsItsPeriod) {
  // No size: everything still queued, up to the period's end.
  EXPECT_EQ(bounds(window("", "10 s"), {1, 12}), (Lines{"[0, 10) {1}", "[10, 20) {1,12}"}));
}

TEST(WindowBounds, ATimeStepWithATokenOrWaveSizeIsItsPeriod) {
  // 2 tokens every 10 s (docs: events at 1, 2, 3, 12, 31 s).
  EXPECT_EQ(bounds(window("2 tokens", "10 s"), {1, 2, 3, 12, 31}),
            (Lines{"[0, 10) {1,2}", "[10, 20) {12}", "[20, 30) {}", "[30, 40) {31}"}));
}

TEST(WindowBounds, ATimeSizeAfterATokenStepEndsAtItsSteppingEvent) {
  // The last 10 s at every second token (docs: events at 0, 3, 6, 9, 12, 15, 20 s).
  EXPECT_EQ(
      bounds(window("10 s", "2 tokens"), {0, 3, 6, 9, 12, 15, 20}),
      (Lines{"(-10, 0] {0}", "(-4, 6] {0,3,6}", "(2, 12] {3,6,9,12}", "(10, 20] {12,15,20}"}));
}

TEST(WindowBounds, ALookBackTimeWindowEndsAtItsEventAndIsClosedThere) {
  // No step: the window of the event at t holds (t - 10 s, t].
  EXPECT_EQ(bounds(window("10 s", ""), {1, 5, 11}),
            (Lines{"(-9, 1] {1}", "(-5, 5] {1,5}", "(1, 11] {5,11}"}));
}

TEST(WindowBounds, TokenWindowsAreBoundedByTheirFirstAndLastEvent) {
  EXPECT_EQ(bounds(window("3 tokens", "3 tokens"), {2, 9, 4, 20}),
            (Lines{"2..4 {2,9,4}", "20..20 {20}"}));
  EXPECT_EQ(bounds(window("2 tokens", ""), {5, 8, 13}),
            (Lines{"5..5 {5}", "5..8 {5,8}", "8..13 {8,13}"}));
}

TEST(WindowBounds, WaveWindowsAreBoundedByTheirFirstAndLastEvent) {
  WindowHarness w(window("1 wave", "1 wave"));
  // Two waves of two events each, the first closed by the last event of its wave.
  WaveTag a(1, 1), b(2, 2);
  w.push(10, 10 * kSecond, a.child(1, false));
  w.push(17, 17 * kSecond, a.child(2, true));
  w.push(21, 21 * kSecond, b.child(1, false));
  w.push(30, 30 * kSecond, b.child(2, true));
  w.advance(30 * kSecond, true);
  ASSERT_TRUE(w.has_window());
  EXPECT_EQ(describe(w.front_window()), "10..17 {10,17}");
  w.finish_window(true, true);
  ASSERT_TRUE(w.has_window());
  EXPECT_EQ(describe(w.front_window()), "21..30 {21,30}");
}

TEST(WindowBounds, AOneEventFifoWindowIsBoundedByItsEvent) {
  Window w{};
  Event e{Value(1), 42 * kSecond, {}};
  w.events = std::span<const Event>(&e, 1);
  EXPECT_FALSE(w.interval);
  EXPECT_EQ(w.start(), 42 * kSecond);
  EXPECT_EQ(w.end(), 42 * kSecond);
  EXPECT_EQ(Window{}.start(), std::nullopt);  // empty, no interval: no bounds
}

}  // namespace
}  // namespace cwf
