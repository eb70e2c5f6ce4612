// join: two streams of windows matched in event time, whatever the order in which the windows of
// the two sides reach the actor (so under every director).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "actor_test_util.hpp"

namespace cwf::actors {
namespace {

using testing::Arrivals;
using testing::collect;
using testing::Harness;
using testing::param_error;
using Lines = std::vector<std::string>;

constexpr Timestamp kMinute = 60 * kSecond;

void source(Harness& h, const std::string& name, int n) {
  h.add(name, "generator", {{"count", Value(n)}, {"value", Value("{id: i, v: i * 10}")}});
}

std::vector<std::string> strings(const testing::Collect& out) {
  std::vector<std::string> lines;
  for (const Value& token : out.tokens())
    lines.push_back(token.is_string() ? std::string(token.as_string()) : token.to_json());
  return lines;
}

std::vector<Timestamp> minutes(const testing::Collect& out) {
  std::vector<Timestamp> times;
  for (Timestamp t : out.times())
    times.push_back(t / kMinute);
  return times;
}

// Orders (one event each) and the prices of a sliding window, read by two independent sources:
// under each director the join sees the two sides interleaved differently.
std::unique_ptr<Workflow> orders_and_price_windows(const std::string& match,
                                                   const std::string& trigger = "both") {
  std::string orders = testing::write_file(
      "orders.jsonl",
      "{\"id\":1,\"min\":3}\n{\"id\":2,\"min\":7}\n{\"id\":3,\"min\":12}\n{\"id\":4,\"min\":13}\n");
  std::string prices;
  for (int minute = 0; minute <= 14; minute += 2)
    prices += "{\"p\":" + std::to_string(minute) + ",\"min\":" + std::to_string(minute) + "}\n";
  std::string prices_path = testing::write_file("prices.jsonl", prices);
  return testing::load(R"(
name: orders-prices
actors:
  orders: {type: jsonl_source, path: )" +
                       orders + R"(, time: /min * 60}
  prices: {type: jsonl_source, path: )" +
                       prices_path + R"(, time: /min * 60}
  j:
    type: join
    match: )" + match + R"(
    trigger: )" + trigger +
                       R"y(
    emit: "concat(str(left/id), ':', str(right/p))"
connections:
  - {from: orders, to: j.left}
  - {from: prices, to: j.right, window: {size: 4 min, step: 2 min}}
)y");
}

// Two streams with ties within and across sides: l0..l7 and r0..r7 at these minutes.
const std::vector<Timestamp> kLeftMinutes = {1, 2, 2, 4, 5, 7, 7, 9};
const std::vector<Timestamp> kRightMinutes = {0, 2, 2, 3, 6, 7, 8, 10};

// The join's output when the events reach it in the order `sides` says (0: the next left event,
// 1: the next right one).
Lines join_interleaved(const std::string& match, const std::vector<int>& sides) {
  std::vector<Arrivals::Item> items[2];
  std::size_t next[2] = {0, 0};
  const std::vector<Timestamp>* minutes[2] = {&kLeftMinutes, &kRightMinutes};
  Timestamp arrival = 0;
  for (int side : sides) {
    std::size_t i = next[side]++;
    std::string name = (side == 0 ? "l" : "r") + std::to_string(i);
    items[side].push_back({arrival += kSecond, (*minutes[side])[i] * kMinute, Value(name)});
  }
  Harness h;
  h.add("left", std::make_unique<Arrivals>(std::move(items[0])));
  h.add("right", std::make_unique<Arrivals>(std::move(items[1])));
  h.add("j", "join", {{"match", Value(match)}, {"emit", Value("concat(left, '+', right)")}});
  h.connect("left", "out", "j", "left");
  h.connect("right", "out", "j", "right");
  auto& out = h.collect("j");
  h.run();
  return strings(out);
}

std::vector<int> all_left_first() {
  std::vector<int> sides(kLeftMinutes.size(), 0);
  sides.insert(sides.end(), kRightMinutes.size(), 1);
  return sides;
}

TEST(Join, MatchLatestGivesTheSameOutputForEveryInterleavingOfTheSides) {
  // At 2 min the lefts meet the last right of that time, and the other right meets the last left.
  const Lines expected = {"l0+r0", "l1+r2", "l2+r2", "l2+r1", "l2+r3", "l3+r3", "l4+r3",
                          "l4+r4", "l5+r5", "l6+r5", "l6+r6", "l7+r6", "l7+r7"};
  std::vector<int> sides = all_left_first();
  ASSERT_EQ(join_interleaved("latest", sides), expected);
  std::mt19937 random(16);
  for (int round = 0; round < 40; ++round) {
    std::shuffle(sides.begin(), sides.end(), random);
    ASSERT_EQ(join_interleaved("latest", sides), expected) << "round " << round;
  }
}

TEST(Join, MatchTimeGivesTheSameOutputForEveryInterleavingOfTheSides) {
  const Lines expected = {"l1+r1", "l1+r2", "l2+r1", "l2+r2", "l5+r5", "l6+r5"};
  std::vector<int> sides = all_left_first();
  ASSERT_EQ(join_interleaved("time", sides), expected);
  std::mt19937 random(61);
  for (int round = 0; round < 40; ++round) {
    std::shuffle(sides.begin(), sides.end(), random);
    ASSERT_EQ(join_interleaved("time", sides), expected) << "round " << round;
  }
}

// A window earlier than one its side already delivered is late: left out and counted. The input
// `/` is the left token.
TEST(Join, AWindowOutOfTimeOrderOnItsSideIsLate) {
  Harness h;
  h.add("left",
        std::make_unique<Arrivals>(std::vector<Arrivals::Item>{{1, 5 * kMinute, Value("l5")},
                                                               {2, 3 * kMinute, Value("l3")},
                                                               {3, 6 * kMinute, Value("l6")}}));
  h.add("right", std::make_unique<Arrivals>(std::vector<Arrivals::Item>{
                     {4, 4 * kMinute, Value("r4")}, {5, 6 * kMinute, Value("r6")}}));
  h.add("j", "join", {{"emit", Value("concat(/, '+', right)")}});
  h.connect("left", "out", "j", "left");
  h.connect("right", "out", "j", "right");
  auto& out = h.collect("j");
  RunSummary summary = h.run();
  EXPECT_EQ(strings(out), (Lines{"l5+r4", "l6+r6"}));
  std::uint64_t late = 0;
  for (const auto& actor : summary.actors)
    if (actor.name == "j") late = actor.late;
  EXPECT_EQ(late, 1u);
}

TEST(Join, AnExpressionThatFailsOnAPairCountsAsAnError) {
  Harness h;
  h.add("src", "generator", {{"count", Value(3)}, {"value", Value("if(i == 1, 'x', i)")}});
  h.add("j", "join", {{"match", Value("time")}, {"emit", Value("left * right")}});
  h.connect("src", "out", "j", "left");
  h.connect("src", "out", "j", "right");
  auto& out = h.collect("j");
  RunSummary summary = h.run();
  // The generator's events share one time: each left meets each right; the 5 pairs with 'x' fail.
  EXPECT_EQ(out.json(), (Lines{"0", "0", "0", "4"}));
  EXPECT_EQ(Harness::errors(summary, "j"), 5u);
}

class JoinUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

// Each window of either side is joined with the other side's latest window at or before its
// time; an order and a price window of the same time (12 min) are joined once.
TEST_P(JoinUnderEveryDirector, MatchLatestJoinsByEventTime) {
  auto workflow = orders_and_price_windows("latest");
  auto& out = collect(*workflow, "j");
  RunSummary summary = testing::run_under(*workflow, GetParam());
  // Price windows end at 4, 6, ..., 16 min and [14, 18) closes at the end of input.
  EXPECT_EQ(strings(out),
            (Lines{"1:0", "1:2", "1:2", "1:4", "2:2", "2:4", "2:4", "2:6", "2:6", "2:8", "3:8",
                   "3:10", "4:8", "4:10", "4:10", "4:12", "4:12", "4:14", "4:14"}));
  EXPECT_EQ(minutes(out), (std::vector<Timestamp>{4, 4, 6, 6, 7, 7, 8, 8, 10, 10, 12, 12, 13, 13,
                                                  14, 14, 16, 16, 18}));
  EXPECT_EQ(summary.incomplete(), 0u);
}

// trigger: left: each order once, with the latest price window at or before its time.
TEST_P(JoinUnderEveryDirector, MatchLatestTriggeredByTheLeftJoinsEachLeftWindowOnce) {
  auto workflow = orders_and_price_windows("latest", "left");
  auto& out = collect(*workflow, "j");
  testing::run_under(*workflow, GetParam());
  // Order 1 (3 min) comes before the first price window ends (4 min): nothing to join it with.
  EXPECT_EQ(strings(out), (Lines{"2:2", "2:4", "3:8", "3:10", "4:8", "4:10"}));
  EXPECT_EQ(minutes(out), (std::vector<Timestamp>{7, 7, 12, 12, 13, 13}));
}

// trigger: right: each price window once, with the latest order at or before its time.
TEST_P(JoinUnderEveryDirector, MatchLatestTriggeredByTheRightJoinsEachRightWindowOnce) {
  auto workflow = orders_and_price_windows("latest", "right");
  auto& out = collect(*workflow, "j");
  testing::run_under(*workflow, GetParam());
  EXPECT_EQ(strings(out), (Lines{"1:0", "1:2", "1:2", "1:4", "2:4", "2:6", "2:6", "2:8", "3:8",
                                 "3:10", "4:10", "4:12", "4:12", "4:14", "4:14"}));
  EXPECT_EQ(minutes(out),
            (std::vector<Timestamp>{4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 16, 16, 18}));
}

// Only windows of the same time meet: the order of 12 min and the window [8, 12).
TEST_P(JoinUnderEveryDirector, MatchTimeJoinsWindowsOfTheSameTime) {
  auto workflow = orders_and_price_windows("time");
  auto& out = collect(*workflow, "j");
  testing::run_under(*workflow, GetParam());
  EXPECT_EQ(strings(out), (Lines{"3:8", "3:10"}));
  EXPECT_EQ(minutes(out), (std::vector<Timestamp>{12, 12}));
}

// Both sides fed by the same source: in match: time every token's window (one event, its
// timestamp) meets the other side's window of the same time, whatever order they arrive in.
TEST(Join, MatchTimeJoinsTheWindowsOfTheSameTime) {
  Harness h;
  source(h, "src", 4);
  h.add("j", "join",
        {{"match", Value("time")},
         {"on", Value("left/id == right/id")},
         {"emit", Value("{id: left/id, sum: left/v + right/v}")}});
  h.connect("src", "out", "j", "left");
  h.connect("src", "out", "j", "right");
  auto& out = h.collect("j");
  h.run();
  std::vector<std::string> got = out.json();
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (Lines{R"({"id":0,"sum":0})", R"({"id":1,"sum":20})", R"({"id":2,"sum":40})",
                        R"({"id":3,"sum":60})"}));
}

// Emits, in one firing, r1 at 1, l1 at 2, l2 at 3, r2 at 4, l3 at 5 on its ports l and r. The
// join fires on them after the firing, earliest window time first.
class TwoStreams final : public Actor {
 public:
  TwoStreams() {
    add_output("l");
    add_output("r");
  }
  void fire(FiringContext& c) override {
    const std::pair<int, const char*> events[] = {
        {1, "r1"}, {0, "l1"}, {0, "l2"}, {1, "r2"}, {0, "l3"}};
    Timestamp t = 1;
    for (const auto& [port, name] : events) {
      c.set_output_time(t++);
      c.emit(port, Value(name));
    }
  }
  bool postfire(FiringContext&) override { return false; }
};

TEST(Join, MatchLatestJoinsWithTheMostRecentWindowOfTheOtherSide) {
  Harness h;
  h.add("src", std::make_unique<TwoStreams>());
  h.add("j", "join", {{"emit", Value("concat(left, '+', right)")}});
  h.connect("src", "l", "j", "left");
  h.connect("src", "r", "j", "right");
  auto& out = h.collect("j");
  h.run();
  // r1 meets no left window yet; l1 and l2 meet r1; r2 meets l2; l3 meets r2.
  EXPECT_EQ(out.json(), (Lines{R"("l1+r1")", R"("l2+r1")", R"("l2+r2")", R"("l3+r2")"}));
}

TEST(Join, NothingWhileTheOtherSideHadNoWindow) {
  Harness h;
  source(h, "src", 3);
  h.add("j", "join", {});
  h.connect("src", "out", "j", "left");
  auto& out = h.collect("j");
  h.run();
  EXPECT_TRUE(out.seen.empty());
}

TEST(Join, ParameterErrors) {
  EXPECT_EQ(param_error("join", {{"match", Value("sideways")}}),
            "match: expected latest or time, got 'sideways'");
  EXPECT_EQ(param_error("join", {{"on", Value("window > 1")}}).rfind("on: ", 0), 0u);
  EXPECT_EQ(param_error("join", {{"trigger", Value("up")}}),
            "trigger: expected both, left or right, got 'up'");
  EXPECT_EQ(param_error("join", {{"match", Value("time")}, {"trigger", Value("left")}}),
            "trigger: only match: latest has a trigger side");
  auto j = testing::make("join", {});
  EXPECT_EQ(j->input_index("left"), 0);
  EXPECT_EQ(j->input_index("right"), 1);
}

INSTANTIATE_TEST_SUITE_P(Directors, JoinUnderEveryDirector,
                         ::testing::ValuesIn(testing::kEveryDirector),
                         [](const auto& info) { return testing::director_label(info.param); });

}  // namespace
}  // namespace cwf::actors
