// Group-by: one queue per key, the earliest ready window first across groups.
#include <gtest/gtest.h>

#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::show;
using testing::window;
using testing::WindowHarness;

const auto rec = &testing::keyed;

WindowSpec grouped(const std::string& size, const std::string& step,
                   std::vector<std::string> keys = {"/k"}) {
  WindowSpec spec = window(size, step);
  spec.group_by = std::move(keys);
  return spec;
}

TEST(WindowGroupBy, TokenWindowsPerKey) {
  WindowHarness w(grouped("2 tokens", "2 tokens"));
  w.push(rec("a", 1), 1);
  w.push(rec("b", 2), 2);
  w.push(rec("b", 3), 3);
  w.push(rec("a", 4), 4);
  w.push(rec("a", 5), 5);
  EXPECT_EQ(show(w.at(5)), (std::vector<std::string>{"b:2,3", "a:1,4"}));  // by last event time
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"a:5"}));
  EXPECT_EQ(w.groups(), 2u);
}

TEST(WindowGroupBy, TimeWindowsEarliestFirstAcrossGroups) {
  WindowHarness w(grouped("10 ns", "10 ns"));
  w.push(rec("a", 1), 1);
  w.push(rec("b", 2), 2);
  w.push(rec("a", 11), 11);
  w.push(rec("b", 15), 15);
  w.push(rec("a", 25), 25);
  EXPECT_EQ(show(w.at(25)), (std::vector<std::string>{"a:1", "b:2", "a:11", "b:15"}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 10, 20, 20}));
  // b saw nothing in [20, 30): an empty window of its own.
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"a:25", "-"}));
}

TEST(WindowGroupBy, SuppressEmptyDropsTheEmptyWindowsOfQuietGroups) {
  WindowSpec spec = grouped("10 ns", "10 ns");
  spec.suppress_empty = true;
  WindowHarness w(spec);
  w.push(rec("a", 1), 1);
  w.push(rec("b", 2), 2);
  w.push(rec("a", 41), 41);
  EXPECT_EQ(show(w.at(41)), (std::vector<std::string>{"a:1", "b:2"}));
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"a:41"}));
}

TEST(WindowGroupBy, SeveralKeysAndOrderInsensitiveSets) {
  WindowHarness w(grouped("", "", {"/u", "as_set(/tags)"}));
  auto tweet = [](std::string_view user, std::initializer_list<Value> tags, int v) {
    return Value::record(
        {{"u", Value(user)}, {"tags", Value::array(tags)}, {"k", Value(user)}, {"v", Value(v)}});
  };
  w.push(tweet("x", {"p", "q"}, 1), 1);
  w.push(tweet("x", {"q", "p"}, 2), 2);
  w.push(tweet("y", {"p", "q"}, 3), 3);
  w.push(tweet("x", {"p"}, 4), 4);
  EXPECT_EQ(show(w.at(4)), (std::vector<std::string>{"x:1", "x:1,2", "y:3", "x:4"}));
  EXPECT_EQ(w.groups(), 3u);
}

TEST(WindowGroupBy, DeleteUsedAndExpiryArePerGroup) {
  WindowSpec spec = grouped("2 tokens", "1 token");
  spec.delete_used = true;
  WindowHarness w(spec);
  for (int i = 0; i < 6; ++i)
    w.push(rec(i % 2 ? "b" : "a", i), i);
  // a: {0,2} consumed, then from token 1 of a (2, used): {4} waits; b: {1,3} consumed, {5} waits.
  EXPECT_EQ(show(w.at(5)), (std::vector<std::string>{"a:0,2", "b:1,3"}));
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"a:4", "b:5"}));
  EXPECT_TRUE(w.expired.empty());
}

}  // namespace
}  // namespace cwf
