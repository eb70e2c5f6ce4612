// Groups that end when quiet (window key `idle`, WindowSpec::idle): a group whose latest event
// is `idle` or more behind the port's latest ends as it would at the end of input (its partial
// windows close, what is left expires) and is forgotten; its key's next event starts a new group.
// Memory then follows the groups that are live, not every key ever seen.
#include <gtest/gtest.h>

#include <string>

#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::show;
using testing::window;
using testing::WindowHarness;

const auto rec = &testing::keyed;

// "a:1", the expired events as show() writes windows.
std::vector<std::string> show_expired(const WindowHarness& w) {
  std::vector<std::string> out;
  for (const Value& v : w.expired_tokens())
    out.push_back(std::string(v.field("k")->as_string()) + ":" +
                  std::to_string(v.field("v")->as_int()));
  return out;
}

WindowSpec idle_after(const std::string& size, const std::string& step, Duration idle) {
  WindowSpec spec = window(size, step);
  spec.group_by = {"/k"};
  spec.idle = idle;
  return spec;
}

// {2 tokens, step 1 token} per key, idle 10 ns. a reports at 1 and 2; b at 5 and 12: at 12 the
// port is 10 past a's latest (2), so a ends: its window from its 2nd token on, [2], closes as it
// would at the end of input, and 2 expires (1 expired when the step passed it). a's next event,
// at 13, is the first of a new group: its window waits for a second token, never [2, 13].
TEST(WindowIdle, AQuietGroupEndsAsAtTheEndOfInputAndItsKeyStartsAfresh) {
  WindowHarness w(idle_after("2 tokens", "1 token", 10));
  w.push(rec("a", 1), 1);
  w.push(rec("a", 2), 2);
  w.push(rec("b", 5), 5);
  EXPECT_EQ(show(w.at(5)), (std::vector<std::string>{"a:1,2"}));
  EXPECT_EQ(show_expired(w), (std::vector<std::string>{"a:1"}));
  w.push(rec("b", 12), 12);
  EXPECT_EQ(show(w.at(12)), (std::vector<std::string>{"a:2", "b:5,12"}));
  EXPECT_EQ(show_expired(w), (std::vector<std::string>{"a:1", "a:2", "b:5"}));
  EXPECT_EQ(w.groups(), 1u);  // b
  w.push(rec("a", 13), 13);
  EXPECT_EQ(w.groups(), 2u);
  EXPECT_TRUE(w.at(13).empty());  // the new a has one token
  w.push(rec("a", 14), 14);
  EXPECT_EQ(show(w.at(14)), (std::vector<std::string>{"a:13,14"}));
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"b:12", "a:14"}));
}

// Exactly `idle` behind is quiet; one nanosecond less is not.
TEST(WindowIdle, QuietMeansTheIdleDurationOrMoreBehindThePortsLatestEvent) {
  WindowHarness w(idle_after("2 tokens", "2 tokens", 10));
  w.push(rec("a", 1), 0);
  w.push(rec("b", 2), 9);
  w.at(9);
  EXPECT_EQ(w.groups(), 2u);  // a is 9 behind
  w.push(rec("b", 3), 10);
  EXPECT_EQ(show(w.at(10)), (std::vector<std::string>{"a:1", "b:2,3"}));
  EXPECT_EQ(w.groups(), 1u);
}

// The event that finds its own group quiet starts the new group: b's 1 and 2 are 20 apart.
TEST(WindowIdle, AnEventThatComesAfterItsGroupWentQuietIsTheFirstOfANewGroup) {
  WindowHarness w(idle_after("2 tokens", "2 tokens", 10));
  w.push(rec("b", 1), 0);
  w.push(rec("b", 2), 20);
  EXPECT_EQ(show(w.at(20)), (std::vector<std::string>{"b:1"}));
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"b:2"}));
}

// Whether a group ends is decided as events arrive, not when the receiver is next advanced: the
// same stream gives the same windows whether the port is advanced after each event or once.
TEST(WindowIdle, EndingDependsOnTheOrderOfArrivalNotOnWhenWindowsAreFormed) {
  auto feed = [](bool advance_each) {
    WindowHarness w(idle_after("2 tokens", "1 token", 10));
    std::vector<std::string> out;
    auto push = [&](std::string_view k, int v, Timestamp t) {
      w.push(rec(k, v), t);
      if (advance_each)
        for (const std::string& s : show(w.at(t)))
          out.push_back(s);
    };
    push("a", 1, 1);
    push("b", 2, 5);
    push("b", 3, 12);  // a is quiet: ends before its next event
    push("a", 4, 13);
    push("a", 5, 14);
    for (const std::string& s : show(w.end()))
      out.push_back(s);
    return out;
  };
  // a:1 is a partial window of the first a; a:4,5 are the second a's.
  const std::vector<std::string> expected = {"a:1", "b:2,3", "a:4,5", "b:3", "a:5"};
  EXPECT_EQ(feed(true), expected);
  std::vector<std::string> once = feed(false);
  std::sort(once.begin(), once.end());
  std::vector<std::string> sorted = expected;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(once, sorted);
}

// Groups whose latest event came behind the port's latest (events out of time order) end at
// their own time too, before those watched since: a at 5 and c at 15 both arrive after b at 20.
// b's next event, at 25, leaves a (20 behind) and c (exactly 10 behind) quiet, not b; their
// windows close where that event arrived, before the one it completes.
TEST(WindowIdle, GroupsWhoseEventsCameOutOfTimeOrderEndAtTheirOwnTime) {
  WindowHarness w(idle_after("2 tokens", "2 tokens", 10));
  w.push(rec("b", 1), 20);
  w.push(rec("a", 2), 5);
  w.push(rec("c", 3), 15);
  w.push(rec("d", 4), 20);
  EXPECT_TRUE(w.at(20).empty());
  EXPECT_EQ(w.groups(), 4u);
  w.push(rec("b", 5), 25);
  EXPECT_EQ(show(w.at(25)), (std::vector<std::string>{"a:2", "c:3", "b:1,5"}));
  EXPECT_EQ(w.groups(), 2u);  // b, d
  w.push(rec("e", 6), 30);    // d is 10 behind
  EXPECT_EQ(show(w.at(30)), (std::vector<std::string>{"d:4"}));
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"e:6"}));
}

// Time windows: a key seen once per period leaves a group behind it for `idle` only. A thousand
// keys, one event each, 10 ns apart, {10 ns, 10 ns} windows with idle 30 ns: at most four groups
// live at any time, every key's window handed out once, every event used or expired.
TEST(WindowIdle, MemoryFollowsTheLiveGroupsNotEveryKeyEverSeen) {
  WindowSpec spec = idle_after("10 ns", "10 ns", 30);
  spec.suppress_empty = true;
  WindowHarness w(spec);
  std::size_t windows = 0, most_groups = 0;
  for (int i = 0; i < 1000; ++i) {
    w.push(rec("car" + std::to_string(i), i), 10 * i);
    windows += w.at(10 * i).size();
    most_groups = std::max(most_groups, w.groups());
  }
  windows += w.end().size();
  EXPECT_EQ(windows, 1000u);
  EXPECT_LE(most_groups, 4u);
  EXPECT_EQ(w.buffered(), 0u);
}

// A new group in the slot of one that ended numbers its arrivals on from the old one's, so an
// actor that keeps state per group index (aggregate) sees the old events as gone.
TEST(WindowIdle, ANewGroupInAFreedSlotNumbersItsArrivalsOnFromTheOldOnes) {
  WindowHarness w(idle_after("2 tokens", "2 tokens", 10));
  w.push(rec("a", 1), 1);
  w.push(rec("a", 2), 2);
  w.push(rec("a", 3), 3);
  EXPECT_EQ(show(w.at(3)), (std::vector<std::string>{"a:1,2"}));
  w.push(rec("b", 4), 20);  // a ends; its slot is free once its last window [3] is handed out
  EXPECT_EQ(show(w.at(20)), (std::vector<std::string>{"a:3"}));
  w.push(rec("c", 5), 40);  // b ends; c takes a's slot 0, where 3 events had arrived
  w.push(rec("c", 6), 41);
  w.advance(41, false);
  ASSERT_TRUE(w.has_window());
  EXPECT_EQ(w.front_window().group, 1u);  // b's partial window [4] first (time 20)
  w.finish_window(true, true);
  ASSERT_TRUE(w.has_window());
  Window window = w.front_window();
  EXPECT_EQ(window.group, 0u);
  EXPECT_EQ(window.first_seq, 3u);
  ASSERT_EQ(window.seqs.size(), 2u);
  EXPECT_EQ(window.seqs[1], 4u);
}

}  // namespace
}  // namespace cwf
