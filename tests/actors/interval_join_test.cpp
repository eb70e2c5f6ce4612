// interval_join: events of two streams paired by key within a time bound relative to the left
// event, in event time: the same pairs, unmatched events and order under every director and for
// every interleaving of the two sides, with state that stays bounded on a long stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <tuple>

#include "actor_test_util.hpp"
#include "actors/interval_join.hpp"

namespace cwf::actors {
namespace {

using testing::Arrivals;
using testing::collect;
using testing::Harness;
using testing::param_error;
using Lines = std::vector<std::string>;

constexpr Timestamp kMinute = 60 * kSecond;

std::vector<Timestamp> minutes(const testing::Collect& out) {
  std::vector<Timestamp> times;
  for (Timestamp t : out.times())
    times.push_back(t / kMinute);
  return times;
}

// Orders and payments (minutes): order 2 is paid twice, order 3 too late, order 5 before it was
// placed, order 9 was never placed.
std::unique_ptr<Workflow> orders_and_payments() {
  std::string orders = testing::write_file("orders.jsonl",
                                           "{\"order\":1,\"min\":0}\n"
                                           "{\"order\":2,\"min\":1}\n"
                                           "{\"order\":3,\"min\":2}\n"
                                           "{\"order\":4,\"min\":5}\n"
                                           "{\"order\":5,\"min\":20}\n");
  std::string payments = testing::write_file("payments.jsonl",
                                             "{\"order\":2,\"amount\":20,\"min\":3}\n"
                                             "{\"order\":1,\"amount\":10,\"min\":4}\n"
                                             "{\"order\":4,\"amount\":40,\"min\":6}\n"
                                             "{\"order\":2,\"amount\":5,\"min\":6}\n"
                                             "{\"order\":3,\"amount\":30,\"min\":13}\n"
                                             "{\"order\":9,\"amount\":90,\"min\":14}\n"
                                             "{\"order\":5,\"amount\":50,\"min\":19}\n");
  return testing::load(R"(
name: orders-payments
actors:
  orders: {type: jsonl_source, path: )" +
                       orders + R"(, time: /min * 60}
  payments: {type: jsonl_source, path: )" +
                       payments + R"(, time: /min * 60}
  paid:
    type: interval_join
    key: /order
    upper: 10 min
    emit: "{order: left/order, paid: right/amount}"
connections:
  - orders -> paid.left
  - payments -> paid.right
)");
}

class IntervalJoinUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(IntervalJoinUnderEveryDirector, PairsByKeyWithinTheBoundAndReleasesTheUnmatched) {
  auto workflow = orders_and_payments();
  auto& paid = collect(*workflow, "paid");
  auto& unpaid = collect(*workflow, "paid", "left_unmatched");
  auto& unknown = collect(*workflow, "paid", "right_unmatched");
  RunSummary summary = testing::run_under(*workflow, GetParam());
  EXPECT_EQ(paid.json(), (Lines{R"({"order":2,"paid":20})", R"({"order":1,"paid":10})",
                                R"({"order":4,"paid":40})", R"({"order":2,"paid":5})"}));
  EXPECT_EQ(minutes(paid), (std::vector<Timestamp>{3, 4, 6, 6}));
  EXPECT_EQ(unpaid.json(), (Lines{R"({"order":3,"min":2})", R"({"order":5,"min":20})"}));
  EXPECT_EQ(minutes(unpaid), (std::vector<Timestamp>{2, 20}));
  EXPECT_EQ(unknown.json(),
            (Lines{R"({"order":3,"amount":30,"min":13})", R"({"order":9,"amount":90,"min":14})",
                   R"({"order":5,"amount":50,"min":19})"}));
  EXPECT_EQ(minutes(unknown), (std::vector<Timestamp>{13, 14, 19}));
  EXPECT_EQ(summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, IntervalJoinUnderEveryDirector,
                         ::testing::ValuesIn(testing::kEveryDirector),
                         [](const auto& info) { return testing::director_label(info.param); });

// Runs an interval join of {k, n} records over the given left and right events (minute, key),
// delivered in the order `sides` says (0: the next left event, 1: the next right one); returns the
// lines of out, left_unmatched and right_unmatched.
struct Outputs {
  Lines pairs, left_unmatched, right_unmatched;
  std::vector<Timestamp> pair_times;
  bool operator==(const Outputs&) const = default;
};
using Events = std::vector<std::pair<Timestamp, int>>;

Outputs interval_join(const Events& left, const Events& right, const std::vector<int>& sides,
                      const std::string& lower, const std::string& upper) {
  std::vector<Arrivals::Item> items[2];
  std::size_t next[2] = {0, 0};
  const Events* events[2] = {&left, &right};
  Timestamp arrival = 0;
  for (int side : sides) {
    std::size_t i = next[side]++;
    auto [minute, key] = (*events[side])[i];
    Value token = Value::record(
        {{"k", Value(key)}, {"n", Value((side == 0 ? "l" : "r") + std::to_string(i))}});
    items[side].push_back({arrival += kSecond, minute * kMinute, std::move(token)});
  }
  Harness h;
  h.add("left", std::make_unique<Arrivals>(std::move(items[0])));
  h.add("right", std::make_unique<Arrivals>(std::move(items[1])));
  h.add("j", "interval_join",
        {{"key", Value("/k")},
         {"lower", Value(lower)},
         {"upper", Value(upper)},
         {"emit", Value("concat(left/n, '+', right/n)")}});
  h.connect("left", "out", "j", "left");
  h.connect("right", "out", "j", "right");
  auto& out = h.collect("j");
  auto& lu = h.collect("j", "left_unmatched");
  auto& ru = h.collect("j", "right_unmatched");
  h.run();
  Outputs o;
  for (const Value& v : out.tokens())
    o.pairs.push_back(std::string(v.as_string()));
  o.pair_times = out.times();
  for (const Value& v : lu.tokens())
    o.left_unmatched.push_back(std::string(v.field("n")->as_string()));
  for (const Value& v : ru.tokens())
    o.right_unmatched.push_back(std::string(v.field("n")->as_string()));
  return o;
}

std::vector<int> left_first(std::size_t lefts, std::size_t rights) {
  std::vector<int> sides(lefts, 0);
  sides.insert(sides.end(), rights, 1);
  return sides;
}

// A left event at 5 min with lower -1 min and upper 1 min meets the rights at 4, 5 and 6 min (both
// bounds included), not the one at 7; the pair of equal times comes after the left's own time.
TEST(IntervalJoin, BoundsAreInclusiveAndMayBeNegative) {
  Events left = {{5, 1}};
  Events right = {{4, 1}, {5, 1}, {6, 1}, {7, 1}};
  Outputs o = interval_join(left, right, left_first(1, 4), "-1 min", "1 min");
  EXPECT_EQ(o.pairs, (Lines{"l0+r0", "l0+r1", "l0+r2"}));
  EXPECT_EQ(o.pair_times, (std::vector<Timestamp>{5 * kMinute, 5 * kMinute, 6 * kMinute}));
  EXPECT_EQ(o.left_unmatched, Lines{});
  EXPECT_EQ(o.right_unmatched, Lines{"r3"});
}

// Random keys and times (ties included) delivered in shuffled interleavings: always the same
// output, and the pairs and unmatched events of a brute-force reading of the definition.
TEST(IntervalJoin, GivesTheSameOutputForEveryInterleavingOfTheSides) {
  std::mt19937 random(2016);
  for (int data = 0; data < 8; ++data) {
    Events left, right;
    for (Events* events : {&left, &right}) {
      Timestamp minute = 0;
      for (int i = 0; i < 12; ++i) {
        minute += static_cast<Timestamp>(random() % 3);
        events->push_back({minute, static_cast<int>(random() % 3)});
      }
    }
    const std::string lower = data % 2 ? "-2 min" : "0";
    const Timestamp lower_min = data % 2 ? -2 : 0, upper_min = 3;
    // The definition: equal keys, lower <= r - l <= upper.
    std::multiset<std::string> pairs;
    std::set<std::string> left_unmatched, right_unmatched;
    for (std::size_t i = 0; i < left.size(); ++i)
      left_unmatched.insert("l" + std::to_string(i));
    for (std::size_t j = 0; j < right.size(); ++j)
      right_unmatched.insert("r" + std::to_string(j));
    for (std::size_t i = 0; i < left.size(); ++i)
      for (std::size_t j = 0; j < right.size(); ++j) {
        Timestamp gap = right[j].first - left[i].first;
        if (left[i].second != right[j].second || gap < lower_min || gap > upper_min) continue;
        pairs.insert("l" + std::to_string(i) + "+r" + std::to_string(j));
        left_unmatched.erase("l" + std::to_string(i));
        right_unmatched.erase("r" + std::to_string(j));
      }

    std::vector<int> sides = left_first(left.size(), right.size());
    const Outputs expected = interval_join(left, right, sides, lower, "3 min");
    EXPECT_EQ(std::multiset<std::string>(expected.pairs.begin(), expected.pairs.end()), pairs);
    EXPECT_EQ(std::set<std::string>(expected.left_unmatched.begin(), expected.left_unmatched.end()),
              left_unmatched);
    EXPECT_EQ(
        std::set<std::string>(expected.right_unmatched.begin(), expected.right_unmatched.end()),
        right_unmatched);
    EXPECT_TRUE(std::is_sorted(expected.pair_times.begin(), expected.pair_times.end()));
    for (int round = 0; round < 10; ++round) {
      std::shuffle(sides.begin(), sides.end(), random);
      ASSERT_EQ(interval_join(left, right, sides, lower, "3 min"), expected)
          << "data " << data << ", round " << round;
    }
  }
}

// Records, each time it fires, how many events the join holds: a sink behind it fires as soon as
// the join has emitted, on one worker, between the join's firings.
class HeldProbe final : public Actor {
 public:
  explicit HeldProbe(const IntervalJoin& join) : join_(join) { add_input("in"); }
  void fire(FiringContext&) override { most = std::max(most, join_.held()); }
  std::size_t most = 0;

 private:
  const IntervalJoin& join_;
};

// 4000 orders, one a second, each paid 5 s later except every fourth: with a bound of 10 s the
// join holds a few dozen events at any time, and every unpaid order leaves as unmatched.
TEST(IntervalJoin, StateStaysBoundedOnALongStream) {
  constexpr int kOrders = 4000;
  std::vector<Arrivals::Item> orders, payments;
  Timestamp arrival = 0;
  for (int i = 0; i < kOrders; ++i) {
    orders.push_back({arrival += kSecond, i * kSecond, Value::record({{"id", Value(i)}})});
    if (i >= 5 && (i - 5) % 4 != 3)
      payments.push_back({arrival += kSecond, i * kSecond, Value::record({{"id", Value(i - 5)}})});
  }
  Harness h;
  h.add("orders", std::make_unique<Arrivals>(std::move(orders)));
  h.add("payments", std::make_unique<Arrivals>(std::move(payments)));
  auto join = testing::make("interval_join", {{"key", Value("/id")}, {"upper", Value("10 s")}});
  const auto& ij = static_cast<const IntervalJoin&>(*join);
  h.add("j", std::move(join));
  h.connect("orders", "out", "j", "left");
  h.connect("payments", "out", "j", "right");
  auto probe = std::make_unique<HeldProbe>(ij);
  HeldProbe& held = *probe;
  h.add("probe", std::move(probe));
  h.connect("j", "out", "probe", "in");
  auto& unpaid = h.collect("j", "left_unmatched");
  h.run();
  EXPECT_LE(held.most, 40u);
  EXPECT_GT(held.most, 0u);
  EXPECT_EQ(ij.held(), 0u);
  // Orders 3, 7, 11, ... and the last five (paid after the stream ended) were never paid.
  std::size_t expected = 0;
  for (int i = 0; i < kOrders; ++i)
    if (i % 4 == 3 || i + 5 >= kOrders) ++expected;
  EXPECT_EQ(unpaid.seen.size(), expected);
}

TEST(IntervalJoin, NullOrFailingKeysAreRejectedAndOutOfOrderEventsAreLate) {
  Harness h;
  h.add("left", std::make_unique<Arrivals>(std::vector<Arrivals::Item>{
                    {1, 1 * kMinute, Value::record({{"k", Value(1)}})},
                    {2, 2 * kMinute, Value::record({{"x", Value(1)}})},
                    {3, 3 * kMinute, Value::record({{"k", Value(2)}})},
                    {4, 2 * kMinute, Value::record({{"k", Value(1)}})}}));
  h.add("right", std::make_unique<Arrivals>(std::vector<Arrivals::Item>{
                     {5, 2 * kMinute, Value::record({{"k", Value(1)}})}}));
  h.add("j", "interval_join", {{"key", Value("/k")}, {"upper", Value("1 min")}});
  h.connect("left", "out", "j", "left");
  h.connect("right", "out", "j", "right");
  auto& out = h.collect("j");
  RunSummary summary = h.run();
  EXPECT_EQ(out.json(), (Lines{R"({"left":{"k":1},"right":{"k":1}})"}));
  for (const ActorSummary& a : summary.actors)
    if (a.name == "j") {
      EXPECT_EQ(a.rejected, 1u);  // the record without k
      EXPECT_EQ(a.late, 1u);      // 2 min after 3 min on the left
    }
}

TEST(IntervalJoin, ParameterErrors) {
  EXPECT_EQ(param_error("interval_join", {{"upper", Value("1 min")}}),
            "left_key: no key for this side: set key, or left_key");
  EXPECT_EQ(param_error("interval_join", {{"left_key", Value("/a")}, {"upper", Value("1 min")}}),
            "right_key: no key for this side: set key, or right_key");
  EXPECT_EQ(param_error("interval_join", {{"key", Value("/a")}, {"upper", Value("-1 min")}}),
            "upper: upper must not be below lower");
  EXPECT_EQ(param_error("interval_join", {{"key", Value("/a")}, {"upper", Value("ten min")}})
                .rfind("upper: ", 0),
            0u);
  EXPECT_NE(param_error("interval_join", {{"key", Value("/a")}}).find("upper"), std::string::npos);
  EXPECT_EQ(param_error("interval_join", {{"left_key", Value("/a")},
                                          {"right_key", Value("/b")},
                                          {"lower", Value("-5 min")},
                                          {"upper", Value("-1 min")}}),
            "");
  auto j = testing::make("interval_join", {{"key", Value("/a")}, {"upper", Value("1 s")}});
  EXPECT_EQ(j->output_index("out"), IntervalJoin::kOut);
  EXPECT_EQ(j->output_index("left_unmatched"), IntervalJoin::kLeftUnmatched);
  EXPECT_EQ(j->output_index("right_unmatched"), IntervalJoin::kRightUnmatched);
}

}  // namespace
}  // namespace cwf::actors
