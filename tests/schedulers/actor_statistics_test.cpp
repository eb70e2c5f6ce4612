// The statistics module every policy may use: cost per firing and selectivity as moving
// averages, input and output rates between samples, queue length from the director.
#include "schedulers/actor_statistics.hpp"

#include <gtest/gtest.h>

namespace cwf::schedulers {
namespace {

TEST(ActorStatistics, CostSelectivityRatesAndQueueLength) {
  ActorStats counters;
  std::size_t queued = 7;
  std::vector<SchedulableActor> actors(1);
  actors[0].stats = &counters;
  actors[0].queue_length = [&] { return queued; };
  ActorStatistics stats;
  stats.attach(actors);
  EXPECT_FALSE(stats.measured(0));
  EXPECT_EQ(stats.cost_per_firing(0, 123), 123);  // the fallback before the first firing
  stats.record(0, FiringReport{.firings = 4, .cost = 4000, .events_out = 2});
  stats.record(0, FiringReport{.firings = 6, .cost = 8000, .events_out = 3});
  EXPECT_TRUE(stats.measured(0));
  EXPECT_DOUBLE_EQ(stats.cost_per_firing(0), 1200);          // 12000 ns over 10 firings
  EXPECT_DOUBLE_EQ(stats.selectivity(0), 0.5);               // 5 events out over 10 firings
  stats.record(0, FiringReport{.firings = 0, .cost = 999});  // an empty turn says nothing
  EXPECT_DOUBLE_EQ(stats.cost_per_firing(0), 1200);
  EXPECT_EQ(stats.queue_length(0), 7u);

  auto t0 = std::chrono::steady_clock::time_point{} + std::chrono::seconds(10);
  stats.sample(t0);
  counters.events_in.add(300);
  counters.events_out.add(100);
  stats.sample(t0 + std::chrono::milliseconds(50));  // too soon: no new rates
  EXPECT_EQ(stats.input_rate(0), 0);
  stats.sample(t0 + std::chrono::seconds(2));
  EXPECT_DOUBLE_EQ(stats.input_rate(0), 150);  // events per second
  EXPECT_DOUBLE_EQ(stats.output_rate(0), 50);
}

TEST(DecayingRatio, ForgetsThePastGeometricallyButIsExactWhileConstant) {
  DecayingRatio ratio(100);
  for (int i = 0; i < 1000; ++i)
    ratio.add(3, 1);
  EXPECT_DOUBLE_EQ(ratio.value_or(0), 3);
  for (int i = 0; i < 1000; ++i)
    ratio.add(1, 1);  // the behaviour changes: the old figure fades
  EXPECT_NEAR(ratio.value_or(0), 1, 0.01);
}

}  // namespace
}  // namespace cwf::schedulers
