// Token steps and sizes (combination 4), no step, no size; delete-used and expiry.
#include <gtest/gtest.h>

#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::Ints;
using testing::ints;
using testing::window;
using testing::WindowHarness;

TEST(WindowTokens, Figure8SlidingSizeFiveStepThree) {
  WindowHarness w(window("5 tokens", "3 tokens"));
  w.push_range(0, 11);
  w.advance(10, false);
  EXPECT_EQ(ints(w.take()), (Ints{{0, 1, 2, 3, 4}, {3, 4, 5, 6, 7}, {6, 7, 8, 9, 10}}));
  // Window 3 starts at token 9: 6, 7 and 8 can be in no later window.
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  // The end of input closes the window whose lower bound was reached, partial.
  EXPECT_EQ(ints(w.end()), (Ints{{9, 10}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(w.buffered(), 0u);
}

TEST(WindowTokens, WindowsAppearOnlyWhenComplete) {
  WindowHarness w(window("3 tokens", "3 tokens"));
  w.push_range(0, 2);
  EXPECT_TRUE(w.at(1).empty());
  w.push(2, 2);
  EXPECT_EQ(ints(w.at(2)), (Ints{{0, 1, 2}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{2}));  // the last event's time
}

TEST(WindowTokens, Tumbling) {
  WindowHarness w(window("3 tokens", "3 tokens"));
  w.push_range(0, 7);
  EXPECT_EQ(ints(w.at(6)), (Ints{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(ints(w.end()), (Ints{{6}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(WindowTokens, SkippingDropsTheTokensBetweenWindowsAsExpired) {
  WindowHarness w(window("2 tokens", "5 tokens"));
  w.push_range(0, 12);
  EXPECT_EQ(ints(w.at(11)), (Ints{{0, 1}, {5, 6}, {10, 11}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

TEST(WindowTokens, DeleteUsedRemovesConsumedEventsFromLaterWindows) {
  WindowSpec spec = window("3 tokens", "1 token");
  spec.delete_used = true;
  WindowHarness w(spec);
  w.push_range(0, 8);
  // Window 0 = {0,1,2} is consumed; window 1 starts at token 1 but 1 and 2 are gone: the first
  // three remaining from there are {3,4,5}; window 2 (from token 2): {6,7,...}.
  EXPECT_EQ(ints(w.at(7)), (Ints{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_TRUE(w.expired.empty());  // consumed events do not expire
  EXPECT_EQ(ints(w.end()), (Ints{{6, 7}}));
}

TEST(WindowTokens, WithoutDeleteUsedDeclinedWindowsKeepTheirEvents) {
  WindowSpec spec = window("2 tokens", "1 token");
  spec.delete_used = true;
  WindowHarness w(spec);
  w.push_range(0, 4);
  // The actor declines windows holding 0: they are not consumed, so 1 stays for the next one.
  auto fires = [](std::span<const Event> events) { return events.front().token.as_int() != 0; };
  EXPECT_EQ(ints(w.at(3, false, fires)), (Ints{{0, 1}, {1, 2}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0}));  // declined, then left behind
  // {1,2} was consumed: window 2 (from token 2) holds only 3 until the end of input.
  EXPECT_EQ(ints(w.end(fires)), (Ints{{3}}));
}

TEST(WindowTokens, NoStepEvaluatesOnEveryEvent) {
  WindowHarness w(window("3 tokens", ""));
  w.push_range(0, 5);
  EXPECT_EQ(ints(w.at(4)), (Ints{{0}, {0, 1}, {0, 1, 2}, {1, 2, 3}, {2, 3, 4}}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{0, 1, 2}));  // not in {3, 4, next}
}

TEST(WindowTokens, NoSizeHoldsEverythingSinceTheLastDeletion) {
  WindowSpec spec = window("", "2 tokens");
  spec.delete_used = true;
  WindowHarness w(spec);
  w.push_range(0, 6);
  auto fires = [](std::span<const Event> events) { return events.size() >= 4; };
  EXPECT_EQ(ints(w.at(5, false, fires)), (Ints{{0, 1}, {0, 1, 2, 3}, {4, 5}}));
  EXPECT_TRUE(w.expired.empty());
}

TEST(WindowTokens, NoStepNoSizeIsTheWholeQueueOnEveryEvent) {
  WindowSpec spec = window("", "");
  spec.delete_used = true;
  WindowHarness w(spec);
  w.push_range(0, 4);
  auto fires = [](std::span<const Event> events) { return events.size() == 2; };
  EXPECT_EQ(ints(w.at(3, false, fires)), (Ints{{0}, {0, 1}, {2}, {2, 3}}));
}

}  // namespace
}  // namespace cwf
