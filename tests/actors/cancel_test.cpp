// The cancel actor (CWP4) in a running workflow, under every director on the virtual clock (which
// finishes the work of one instant before the next): an order's events leave a window they wait
// in, its later events are dropped, an actor with state per order is told to forget it, and the
// outputs already produced for it are retracted.
#include <gtest/gtest.h>

#include <map>

#include "actor_test_util.hpp"
#include "runtime/windows/window_spec.hpp"

namespace cwf::actors {
namespace {

using testing::Arrivals;
using testing::Collect;
using testing::Harness;
using testing::kEveryDirector;
using testing::make;

constexpr Timestamp kS = 1'000'000'000;

// Counts the items of each order; told that an order is cancelled, it forgets the order and says
// how many items it had counted.
class CountPerOrder final : public Actor {
 public:
  CountPerOrder() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    for (const Event& e : context.window())
      ++counts[e.token.field("order")->as_int()];
  }
  void retract(const CaseId& cancelled, FiringContext& context) override {
    auto it = counts.find(cancelled.key.as_int());
    if (it == counts.end()) return;
    context.emit(Value::record({{"forgot", cancelled.key}, {"items", Value(it->second)}}));
    counts.erase(it);
  }
  std::map<std::int64_t, std::int64_t> counts;
};

Value item(int order, const char* sku) {
  return Value::record({{"order", Value(order)}, {"sku", Value(sku)}});
}

const ActorSummary& stats(const RunSummary& summary, const std::string& name) {
  for (const ActorSummary& a : summary.actors)
    if (a.name == name) return a;
  throw std::invalid_argument(name);
}

class CancelUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(CancelUnderEveryDirector, AKeyCaseLeavesWindowsIsForgottenAndItsOutputsAreRetracted) {
  Harness h;
  // Orders 1 and 2 at 1 s, the cancellation of order 2 at 2 s, a late item of order 2 and
  // order 3 at 3 s.
  h.add("items",
        std::make_unique<Arrivals>(std::vector<Arrivals::Item>{{1 * kS, 1 * kS, item(1, "a")},
                                                               {1 * kS, 1 * kS, item(2, "b")},
                                                               {3 * kS, 3 * kS, item(2, "c")},
                                                               {3 * kS, 3 * kS, item(3, "d")}}));
  h.add("cancels", std::make_unique<Arrivals>(std::vector<Arrivals::Item>{
                       {2 * kS, 2 * kS, Value::record({{"order", Value(2)}})}}));
  h.add("reserve", "map", {{"expression", "{order: /order, sku: /sku}"}});
  h.add("hold", "map", {{"expression", "/sku"}});
  auto counter = std::make_unique<CountPerOrder>();
  CountPerOrder& count = *counter;
  h.add("count", std::move(counter));
  h.add("cancel", "cancel",
        {{"key", "/order"},
         {"scope", Value::array({Value("hold"), Value("count")})},
         {"retract", Value::array({Value("reserve")})}});
  h.connect("items", "reserve");
  WindowSpec ten_seconds;  // one window [0, 10 s), closed by the end of input
  ten_seconds.size = WindowExtent{WindowUnit::time, 10 * kS};
  ten_seconds.step = WindowExtent{WindowUnit::time, 10 * kS};
  h.workflow().declare_window("hold", "in", ten_seconds);
  h.connect("items", "hold");
  h.connect("items", "count");
  h.connect("cancels", "cancel");
  Collect& reserved = h.collect("reserve");
  Collect& held = h.collect("hold");
  Collect& forgotten = h.collect("count");

  RunSummary summary = h.run_under(GetParam());

  // Order 2's reservation was made before the cancellation and is retracted; its late item is
  // never reserved.
  EXPECT_EQ(reserved.json(),
            (std::vector<std::string>{R"({"order":1,"sku":"a"})", R"({"order":2,"sku":"b"})",
                                      R"({"retracted":{"order":2,"sku":"b"}})",
                                      R"({"order":3,"sku":"d"})"}));
  // The retraction is stamped with the time of the output it retracts.
  EXPECT_EQ(reserved.times(), (std::vector<Timestamp>{1 * kS, 1 * kS, 1 * kS, 3 * kS}));
  // Order 2's item left the window it waited in; its late item never entered it.
  EXPECT_EQ(held.json(), (std::vector<std::string>{R"("a")", R"("d")"}));
  EXPECT_EQ(forgotten.json(), (std::vector<std::string>{R"({"forgot":2,"items":1})"}));
  EXPECT_EQ(count.counts, (std::map<std::int64_t, std::int64_t>{{1, 1}, {3, 1}}));

  EXPECT_EQ(stats(summary, "hold").cancelled, 2u);     // b removed, c dropped on arrival
  EXPECT_EQ(stats(summary, "count").cancelled, 1u);    // c
  EXPECT_EQ(stats(summary, "reserve").cancelled, 1u);  // c
  EXPECT_EQ(stats(summary, "reserve").retractions, 1u);
  EXPECT_EQ(stats(summary, "cancel").cancelled, 0u);
  EXPECT_EQ(summary.incomplete(), 0u);  // cancelled on purpose: the run is complete
}

INSTANTIATE_TEST_SUITE_P(Directors, CancelUnderEveryDirector, ::testing::ValuesIn(kEveryDirector),
                         [](const auto& info) { return testing::director_label(info.param); });

TEST(Cancel, ParametersAreChecked) {
  using testing::param_error;
  EXPECT_EQ(param_error("cancel", {{"scope", Value("x")}, {"match", "/order"}}),
            "match: needs `key` (a wave case is matched by its wave)");
  EXPECT_EQ(param_error("cancel", {{"scope", Value("x")}, {"remember", Value(0)}}),
            "remember: must be at least 1");
  EXPECT_EQ(param_error("cancel", {{"scope", Value("x")}}), "");
}

TEST(Cancel, AScopeNamingNoActorStopsTheWorkflowAtStart) {
  Harness h;
  h.add("cancel", "cancel", {{"scope", Value("nobody")}});
  EXPECT_THROW(h.run(), std::invalid_argument);
}

}  // namespace
}  // namespace cwf::actors
