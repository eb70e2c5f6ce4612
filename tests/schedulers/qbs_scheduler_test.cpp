// QBS (seed 5.4.1) on scripted actors: the exact order of turns the rules prescribe. Costs are in
// µs; b is the basic quantum; every expected trace is worked out in the comment above it.
#include "schedulers/qbs_scheduler.hpp"

#include <gtest/gtest.h>

#include "schedulers/register.hpp"
#include "tests/schedulers/policy_simulation.hpp"

namespace cwf::schedulers {
namespace {

using testing::PolicySimulation;
using testing::ScriptedActor;

constexpr Duration us = kMicrosecond;

QbsOptions one_window_turns(Duration basic_quantum, std::uint32_t source_interval = 5) {
  QbsOptions o;
  o.basic_quantum = basic_quantum;
  o.source_interval = source_interval;
  o.batch = 1;
  o.source_batch = 1;
  return o;
}

TEST(QbsScheduler, QuantumIsFortyMinusPriorityBasicQuantaFourfoldBelowTwenty) {
  EXPECT_EQ(QbsScheduler::quantum_for(20, 500 * us), 20 * 500 * us);
  EXPECT_EQ(QbsScheduler::quantum_for(30, 500 * us), 10 * 500 * us);
  EXPECT_EQ(QbsScheduler::quantum_for(39, 500 * us), 1 * 500 * us);
  EXPECT_EQ(QbsScheduler::quantum_for(19, 500 * us), 21 * 4 * 500 * us);
  EXPECT_EQ(QbsScheduler::quantum_for(5, 500 * us), 35 * 4 * 500 * us);  // seed: output actors
  EXPECT_EQ(QbsScheduler::quantum_for(10, 500 * us), 30 * 4 * 500 * us);
  // Outside 0..39 the formula would give no quantum at all: clamped.
  EXPECT_EQ(QbsScheduler::quantum_for(45, 500 * us), 1 * 500 * us);
  EXPECT_EQ(QbsScheduler::quantum_for(-3, 500 * us), 40 * 4 * 500 * us);
}

TEST(QbsScheduler, AscendingPriorityFirstComeFirstServedWithinAPriority) {
  // Quanta far larger than the work: the order is the priority order alone; A and D share
  // priority 10 and alternate, each going behind the other after its turn.
  QbsScheduler qbs(one_window_turns(1000 * us));
  PolicySimulation sim(qbs, {{.name = "A", .priority = 10},
                             {.name = "B", .priority = 5},
                             {.name = "C", .priority = 30},
                             {.name = "D", .priority = 10}});
  sim.arrive(0, 3);
  sim.arrive(1, 3);
  sim.arrive(2, 2);
  sim.arrive(3, 2);
  EXPECT_EQ(sim.run(), "B×1 B×1 B×1 A×1 D×1 A×1 D×1 A×1 C×1 C×1");
}

TEST(QbsScheduler, OutOfQuantumWaitsThenRequantifiesAndSwapsQueues) {
  // b = 100: X (p 30) gets 1000, Y (p 35) gets 500. X costs 300, Y 200, 10 windows each.
  //  1: X 1000→700→400→100→-200 (waits), Y 500→300→100→-100 (waits); requantify: X 800, Y 400
  //  2: X 800→500→200→-100, Y 400→200→0 (0 is not positive: waits); requantify: X 900, Y 500
  //  3: X 900→600→300→0 and out of work (inactive, keeps 0), Y 500→300→100→-100; Y gets 400
  //  4: Y 400→200→0, out of work.
  QbsScheduler qbs(one_window_turns(100 * us));
  PolicySimulation sim(qbs, {{.name = "X", .priority = 30, .cost = 300 * us},
                             {.name = "Y", .priority = 35, .cost = 200 * us}});
  sim.arrive(0, 10);
  sim.arrive(1, 10);
  EXPECT_EQ(sim.run(),
            "X×1 X×1 X×1 X×1 Y×1 Y×1 Y×1 | X×1 X×1 X×1 Y×1 Y×1 | X×1 X×1 X×1 Y×1 Y×1 Y×1 | "
            "Y×1 Y×1");
  EXPECT_EQ(qbs.requantifications(), 3u);
  EXPECT_EQ(qbs.balance(0), 0);
  EXPECT_EQ(qbs.balance(1), 0);
}

TEST(QbsScheduler, AnOverdraftLargerThanAQuantumIsCarriedAndKeepsTheActorWaiting) {
  // b = 100, both p 35 (quantum 500). Z costs 1200 (3 windows), W costs 100 (12 windows).
  //  1: Z 500→-700; W 500→0 after 5. Requantify: Z -200 stays WAITING, W 500.
  //  2: W ×5 → 0. Requantify: Z 300, W 500 (Z queued first, same priority: Z first).
  //  3: Z 300→-900; W ×2 → 300, out of work (inactive, keeps 300). Requantify: Z -400.
  //     (an iteration in which nobody may fire: requantify again) Z 100.
  //  5: Z 100→-1100, out of work.
  QbsScheduler qbs(one_window_turns(100 * us));
  PolicySimulation sim(qbs, {{.name = "Z", .priority = 35, .cost = 1200 * us},
                             {.name = "W", .priority = 35, .cost = 100 * us}});
  sim.arrive(0, 3);
  sim.arrive(1, 12);
  EXPECT_EQ(sim.run(), "Z×1 W×1 W×1 W×1 W×1 W×1 | W×1 W×1 W×1 W×1 W×1 | Z×1 W×1 W×1 | Z×1");
  EXPECT_EQ(qbs.balance(0), -1100 * us);
  EXPECT_EQ(qbs.balance(1), 300 * us);
  EXPECT_EQ(qbs.requantifications(), 4u);
}

TEST(QbsScheduler, AnInactiveActorKeepsItsQuantumAndTurnsFitTheQuantumLeft) {
  // b = 100, p 30 (quantum 1000), cost 300, turns of up to 64 windows sized to the quantum left
  // at the measured cost (the first turn is one window: it measures).
  QbsOptions options = one_window_turns(100 * us);
  options.batch = 64;
  QbsScheduler qbs(options);
  PolicySimulation sim(qbs, {{.name = "V", .priority = 30, .cost = 300 * us}});
  sim.arrive(0, 2);
  EXPECT_EQ(sim.run(), "V×1 V×1");  // 1000→700, then floor(700/300)=2 but only 1 window left
  EXPECT_EQ(qbs.balance(0), 400 * us);
  EXPECT_EQ(qbs.state(0), ActorState::inactive);
  sim.arrive(0, 5);  // starts again with the 400 it kept
  // 400→100 (1 fits), 100→-200 (at least one), requantify: 800; 800→200 (2 fit); 200→-100.
  EXPECT_EQ(sim.run(), "V×1 V×1 | V×2 V×1");
  EXPECT_EQ(qbs.balance(0), -100 * us);
}

TEST(QbsScheduler, SourcesFireAfterEveryXInternalFiringsOncePerIteration) {
  // x = 2. Each source fires once and gives A 3 windows. S1 goes first (nothing internal yet),
  // A fires twice, S2's turn comes, then A drains (no source may fire again in this iteration).
  QbsScheduler qbs(one_window_turns(1000 * us, 2));
  PolicySimulation sim(
      qbs, {{.name = "S1", .emits = {3}, .downstream = {2}, .source = true, .source_firings = 1},
            {.name = "S2", .emits = {3}, .downstream = {2}, .source = true, .source_firings = 1},
            {.name = "A", .cost = 10 * us}});
  EXPECT_EQ(sim.run(), "S1×1 A×1 A×1 S2×1 A×1 A×1 A×1 A×1");
}

TEST(QbsScheduler, ASourceFiresOncePerIteration) {
  QbsScheduler qbs(one_window_turns(1000 * us, 2));
  PolicySimulation sim(
      qbs, {{.name = "S", .downstream = {1}, .source = true, .source_firings = 3}, {.name = "A"}});
  EXPECT_EQ(sim.run(), "S×1 A×1 | S×1 A×1 | S×1 A×1");
}

TEST(QbsScheduler, RegisteredWithValidatedParameters) {
  SchedulerRegistry registry;
  register_all(registry);
  ASSERT_TRUE(registry.contains("qbs"));
  EXPECT_NO_THROW(registry.create(
      "qbs",
      {{"basic_quantum_us", Value(500)}, {"source_interval", Value(5)}, {"batch", Value(1)}}));
  try {
    registry.create("qbs", {{"slice_us", Value(500)}});
    FAIL() << "unknown parameter accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "the qbs scheduler has no parameter 'slice_us' (known: basic_quantum_us, "
                 "source_interval, batch, source_batch)");
  }
  EXPECT_THROW(registry.create("qbs", {{"basic_quantum_us", Value(0)}}), std::invalid_argument);
}

}  // namespace
}  // namespace cwf::schedulers

namespace cwf::schedulers {
namespace {

TEST(QbsScheduler, ASourceWithQuantumLeftDoesNotFloodInternalActorsThatWaitForTheirs) {
  // A (quantum 200, cost 100) runs out after two firings; the source (cost 1) still has most of
  // its 200. Re-quantification comes at the end of that iteration all the same, so A's queue
  // stays short instead of the source taking one turn per iteration until its quantum is gone.
  QbsScheduler qbs(one_window_turns(10 * us, 1));
  PolicySimulation sim(
      qbs,
      {{.name = "src", .cost = 1 * us, .downstream = {1}, .source = true, .source_firings = 1000},
       {.name = "A", .cost = 100 * us}});
  sim.run(300);
  EXPECT_LE(sim.queued(1), 2u);
  EXPECT_GE(sim.fired(1), 100u);
}

TEST(QbsScheduler, SourceTurnsOfSeveralFiringsKeepOneSourceFiringPerXInternalFirings) {
  // x = 2, turns of up to 4 windows, source turns of up to 64 firings. A has 8 windows queued:
  // the first source turn comes at once (1 firing: nothing fired yet), then A fires 4 + 4 + 1;
  // in the next iteration nothing internal has work, so the source fires a whole batch.
  QbsOptions options = one_window_turns(1000 * us, 2);
  options.batch = 4;
  options.source_batch = 64;
  QbsScheduler qbs(options);
  PolicySimulation sim(
      qbs,
      {{.name = "src", .cost = 1 * us, .downstream = {1}, .source = true, .source_firings = 20},
       {.name = "A", .cost = 1 * us}});
  sim.arrive(1, 8);
  // The first turns are one window each (they measure); then 4 fit.
  EXPECT_EQ(sim.run(), "src×1 A×1 A×4 A×4 | src×19 A×4 A×4 A×4 A×4 A×3");
}

}  // namespace
}  // namespace cwf::schedulers
