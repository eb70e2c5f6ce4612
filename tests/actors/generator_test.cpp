#include <gtest/gtest.h>

#include "actor_test_util.hpp"

namespace cwf::actors {
namespace {

using testing::Harness;
using testing::param_error;
using Lines = std::vector<std::string>;
using Times = std::vector<Timestamp>;

TEST(Generator, EmitsCountValuesOfTheExpressionOverI) {
  Harness h;
  h.add("gen", "generator", {{"count", Value(3)}, {"value", Value("{id: i, v: i * 2}")}});
  auto& out = h.collect("gen");
  h.run(7);
  EXPECT_EQ(out.json(), (Lines{R"({"id":0,"v":0})", R"({"id":1,"v":2})", R"({"id":2,"v":4})"}));
  EXPECT_EQ(out.times(), (Times{7, 7, 7}));  // no interval, no start_time: the clock's time
}

TEST(Generator, DefaultValueIsTheSequenceNumber) {
  Harness h;
  h.add("gen", "generator", {{"count", Value(200)}, {"batch", Value(16)}});
  auto& out = h.collect("gen");
  RunSummary summary = h.run();
  ASSERT_EQ(out.seen.size(), 200u);
  for (std::int64_t i = 0; i < 200; ++i)
    ASSERT_EQ(out.seen[static_cast<std::size_t>(i)].token, Value(i));
  EXPECT_EQ(summary.actors[0].firings, 13u);  // ceil(200 / 16)
}

TEST(Generator, IntervalPacesEventsOnTheClock) {
  Harness h;
  h.add("gen", "generator", {{"count", Value(3)}, {"interval", Value(2 * kSecond)}});
  auto& out = h.collect("gen");
  h.run(10 * kSecond);
  EXPECT_EQ(out.fired(), (Times{10 * kSecond, 12 * kSecond, 14 * kSecond}));
  EXPECT_EQ(out.times(), (Times{10 * kSecond, 12 * kSecond, 14 * kSecond}));
}

TEST(Generator, StartTimeSetsTheTimestamps) {
  Harness h;
  h.add("gen", "generator",
        {{"count", Value(3)}, {"interval", Value(kSecond)}, {"start_time", Value(1000 * kSecond)}});
  auto& out = h.collect("gen");
  h.run(10 * kSecond);
  EXPECT_EQ(out.times(), (Times{1000 * kSecond, 1001 * kSecond, 1002 * kSecond}));
  EXPECT_EQ(out.fired(), (Times{10 * kSecond, 11 * kSecond, 12 * kSecond}));

  Harness fast;
  fast.add("gen", "generator", {{"count", Value(2)}, {"start_time", Value(5)}});
  auto& fast_out = fast.collect("gen");
  fast.run(99);
  EXPECT_EQ(fast_out.times(), (Times{5, 5}));
}

TEST(Generator, UnboundedUntilStopped) {
  class Head final : public Actor {
   public:
    Head() { add_input("in"); }
    void fire(FiringContext& context) override {
      for (const Event& e : context.window())
        if (first.size() < 10) first.push_back(e.token);
      count += context.window().size();
    }
    std::vector<Value> first;
    std::size_t count = 0;
  };
  Harness h;
  h.add("gen", "generator", {{"value", Value("i % 3")}, {"batch", Value(1)}});
  auto sink = std::make_unique<Head>();
  Head& out = *sink;
  h.add("sink", std::move(sink));
  h.connect("gen", "sink");
  RealClock clock;
  ScheduledDirector director(std::make_unique<cwf::schedulers::FifoScheduler>(1));
  RunOptions options;
  options.run_for = 10 * kMillisecond;
  RunSummary summary = run_workflow(h.workflow(), director, clock, options);
  ASSERT_GE(out.count, 10u);
  EXPECT_EQ(out.count, summary.actors[0].events_out);
  EXPECT_EQ(out.first[4], Value(1));
}

TEST(Generator, EvaluationErrorsAreCountedAndSkipped) {
  Harness h;
  h.add("gen", "generator", {{"count", Value(4)}, {"value", Value("if(i == 1, \"x\", i) * 2")}});
  auto& out = h.collect("gen");
  RunSummary summary = h.run();
  EXPECT_EQ(out.tokens().size(), 3u);
  EXPECT_EQ(Harness::errors(summary, "gen"), 1u);
}

TEST(Generator, ParameterErrors) {
  EXPECT_EQ(param_error("generator", {}), "");
  EXPECT_EQ(param_error("generator", {{"value", Value("j")}}).substr(0, 15), "value: column 1");
  EXPECT_EQ(param_error("generator", {{"count", Value(-1)}}), "count: count must not be negative");
  EXPECT_EQ(param_error("generator", {{"interval", Value(-1)}}),
            "interval: interval must not be negative");
}

}  // namespace
}  // namespace cwf::actors
