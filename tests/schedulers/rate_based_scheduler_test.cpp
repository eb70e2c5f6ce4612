// Rate-based scheduling (seed 5.4.3) on scripted actors: priorities S/C for a graph with a
// branching actor, computed by hand, and the period buffering of new events. Costs in µs.
#include "schedulers/rate_based_scheduler.hpp"

#include <gtest/gtest.h>

#include "schedulers/register.hpp"
#include "tests/schedulers/policy_simulation.hpp"

namespace cwf::schedulers {
namespace {

using testing::PolicySimulation;
using testing::ScriptedActor;

constexpr Duration us = kMicrosecond;

// src → A → {B, C}; B → sinkB; C → sinkC. A's output goes down both branches. B emits every
// other firing (s = 0.5).
std::vector<ScriptedActor> branching_graph(std::uint64_t source_firings) {
  return {{.name = "src",
           .cost = 10 * us,
           .downstream = {1},
           .source = true,
           .source_firings = source_firings},
          {.name = "A", .cost = 20 * us, .downstream = {2, 3}},
          {.name = "B", .cost = 50 * us, .emits = {0, 1}, .downstream = {4}},
          {.name = "C", .cost = 10 * us, .downstream = {5}},
          {.name = "sinkB", .cost = 5 * us, .emits = {0}},
          {.name = "sinkC", .cost = 5 * us, .emits = {0}}};
}

TEST(RateBasedScheduler, PriorityIsGlobalSelectivityOverGlobalCostWithBranchesAdded) {
  RateBasedOptions options;
  options.batch = 1;
  options.source_batch = 1;
  RateBasedScheduler rb(options);
  PolicySimulation sim(rb, branching_graph(4));
  sim.run();
  ASSERT_EQ(sim.fired(2), 4u);  // B fired an even number of times: s = 2/4 exactly
  rb.recompute_priorities();
  // Output actors: S = 1, C = c.     sinkB, sinkC: S 1, C 5
  // B: S = 0.5·1 = 0.5, C = 50 + 0.5·5 = 52.5;   C: S = 1·1 = 1, C = 10 + 1·5 = 15
  // A (splits): S = 1·(0.5 + 1) = 1.5, C = 20 + 1·(52.5 + 15) = 87.5
  // src: S = 1·1.5 = 1.5, C = 10 + 1·87.5 = 97.5
  const double ns = 1000;
  EXPECT_DOUBLE_EQ(rb.global_selectivity(4), 1);
  EXPECT_DOUBLE_EQ(rb.global_cost(4), 5 * ns);
  EXPECT_DOUBLE_EQ(rb.global_selectivity(2), 0.5);
  EXPECT_DOUBLE_EQ(rb.global_cost(2), 52.5 * ns);
  EXPECT_DOUBLE_EQ(rb.global_selectivity(3), 1);
  EXPECT_DOUBLE_EQ(rb.global_cost(3), 15 * ns);
  EXPECT_DOUBLE_EQ(rb.global_selectivity(1), 1.5);
  EXPECT_DOUBLE_EQ(rb.global_cost(1), 87.5 * ns);
  EXPECT_DOUBLE_EQ(rb.global_selectivity(0), 1.5);
  EXPECT_DOUBLE_EQ(rb.global_cost(0), 97.5 * ns);
  EXPECT_DOUBLE_EQ(rb.priority(1), 1.5 / (87.5 * ns));
  EXPECT_DOUBLE_EQ(rb.priority(0), 1.5 / (97.5 * ns));
  // Highest rate first: the sinks, then C, then A, then src, then B.
  EXPECT_GT(rb.priority(5), rb.priority(3));
  EXPECT_GT(rb.priority(3), rb.priority(1));
  EXPECT_GT(rb.priority(1), rb.priority(0));
  EXPECT_GT(rb.priority(0), rb.priority(2));
}

TEST(RateBasedScheduler, EventsArrivingDuringAPeriodWaitForTheNext) {
  // Before anything is measured every cost is 1000 ns and every s is 1.
  //  period 1: only src may fire; A's new event waits.
  //  period 2: A (budget 1) and src (not yet fired); A ranks first (measured src is now
  //            costlier: Pr(src) = 2/15000 < Pr(A) = 2/5000). Their outputs wait again.
  //  period 3: priorities from measured costs: B and C (1/2000 each, B queued first), then A
  //            (2/24000), then src (2/34000); B's first firing emits nothing.
  RateBasedOptions options;
  options.batch = 1;
  options.source_batch = 1;
  RateBasedScheduler rb(options);
  PolicySimulation sim(rb, branching_graph(3));
  EXPECT_EQ(sim.run(7), "src×1 | A×1 src×1 | B×1 C×1 A×1 src×1");
  EXPECT_EQ(rb.periods(), 3u);
  EXPECT_EQ(sim.queued(1), 1u);  // the event src produced in period 3 waits for period 4
}

TEST(RateBasedScheduler, APeriodFiresWhatWasQueuedWhenItBegan) {
  // Ten events reach A in one source turn; A gets a budget of 10 for the next period, and the
  // events of the next source turn wait although A could fire on them at once.
  RateBasedOptions options;
  options.batch = 4;
  options.source_batch = 1;
  RateBasedScheduler rb(options);
  PolicySimulation sim(
      rb, {{.name = "src", .emits = {10}, .downstream = {1}, .source = true, .source_firings = 2},
           {.name = "A", .cost = 1 * us}});
  EXPECT_EQ(sim.run(), "src×1 | A×4 A×4 A×2 src×1 | A×4 A×4 A×2");
}

TEST(RateBasedScheduler, Registered) {
  SchedulerRegistry registry;
  register_all(registry);
  ASSERT_TRUE(registry.contains("rb"));
  EXPECT_THROW(registry.create("rb", {{"slice_us", Value(5)}}), std::invalid_argument);
}

}  // namespace
}  // namespace cwf::schedulers
