// Round-robin (seed 5.4.2) on scripted actors: exact turn order. Costs in µs.
#include "schedulers/round_robin_scheduler.hpp"

#include <gtest/gtest.h>

#include "schedulers/register.hpp"
#include "tests/schedulers/policy_simulation.hpp"

namespace cwf::schedulers {
namespace {

using testing::PolicySimulation;

constexpr Duration us = kMicrosecond;

RoundRobinOptions one_window_turns(Duration slice, std::uint32_t source_interval = 5) {
  RoundRobinOptions o;
  o.slice = slice;
  o.source_interval = source_interval;
  o.batch = 1;
  o.source_batch = 1;
  return o;
}

TEST(RoundRobinScheduler, EqualSlicesTakenInTurnsEmptyQueueGivesUpTheRest) {
  // Slice 1000. A costs 300 (10 windows), B 400 (2 windows); priorities are ignored.
  //  period 1: A 700, B 600, A 400, B 200 and out of work (gives up 200), A 100, A -200 (waits)
  //  period 2: A gets a fresh 1000: 4 turns; period 3: the last 2.
  RoundRobinScheduler rr(one_window_turns(1000 * us));
  PolicySimulation sim(rr, {{.name = "A", .priority = 30, .cost = 300 * us},
                            {.name = "B", .priority = 1, .cost = 400 * us}});
  sim.arrive(0, 10);
  sim.arrive(1, 2);
  EXPECT_EQ(sim.run(), "A×1 B×1 A×1 B×1 A×1 A×1 | A×1 A×1 A×1 A×1 | A×1 A×1");
  EXPECT_EQ(rr.slice_left(1), 0);
}

TEST(RoundRobinScheduler, AnActorThatGetsWorkMidPeriodGetsASliceAndJoinsAtTheEnd) {
  // As above, and B gets one more window before turn 7 (after A's first turn of period 2): it
  // gets a full slice and queues behind A.
  RoundRobinScheduler rr(one_window_turns(1000 * us));
  PolicySimulation sim(rr, {{.name = "A", .cost = 300 * us}, {.name = "B", .cost = 400 * us}});
  sim.arrive(0, 10);
  sim.arrive(1, 2);
  sim.arrive_before_turn(7, 1, 1);
  EXPECT_EQ(sim.run(), "A×1 B×1 A×1 B×1 A×1 A×1 | A×1 A×1 B×1 A×1 A×1 | A×1 A×1");
}

TEST(RoundRobinScheduler, SourcesTakeTheirTurnAfterEveryXInternalFirings) {
  RoundRobinScheduler rr(one_window_turns(1000 * us, 2));
  PolicySimulation sim(
      rr, {{.name = "S1", .emits = {3}, .downstream = {2}, .source = true, .source_firings = 1},
           {.name = "S2", .emits = {3}, .downstream = {2}, .source = true, .source_firings = 1},
           {.name = "A", .cost = 10 * us}});
  EXPECT_EQ(sim.run(), "S1×1 A×1 A×1 S2×1 A×1 A×1 A×1 A×1");
}

TEST(RoundRobinScheduler, TurnsOfSeveralWindowsFitTheSliceLeft) {
  RoundRobinOptions options = one_window_turns(1000 * us);
  options.batch = 64;
  RoundRobinScheduler rr(options);
  PolicySimulation sim(rr, {{.name = "A", .cost = 300 * us}});
  sim.arrive(0, 6);
  // The first turn is one window (it measures): 1000→700; floor(700/300) = 2 → 100; at least
  // one → -200, waiting | a fresh 1000: 3 would fit, the 2 windows left are fired.
  EXPECT_EQ(sim.run(), "A×1 A×2 A×1 | A×2");
}

TEST(RoundRobinScheduler, RegisteredWithValidatedParameters) {
  SchedulerRegistry registry;
  register_all(registry);
  ASSERT_TRUE(registry.contains("rr"));
  EXPECT_NO_THROW(registry.create("rr", {{"slice_us", Value(20000)}}));
  EXPECT_THROW(registry.create("rr", {{"slice_us", Value("long")}}), std::invalid_argument);
  EXPECT_THROW(registry.create("rr", {{"basic_quantum_us", Value(5)}}), std::invalid_argument);
}

}  // namespace
}  // namespace cwf::schedulers
