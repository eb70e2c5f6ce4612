#include "schedulers/fifo_scheduler.hpp"

#include <gtest/gtest.h>

#include "schedulers/register.hpp"

namespace cwf::schedulers {
namespace {

std::vector<SchedulableActor> three_actors() {
  std::vector<SchedulableActor> actors(3);
  for (ActorId id = 0; id < 3; ++id)
    actors[id].id = id;
  actors[0].is_source = true;
  return actors;
}

TEST(FifoScheduler, GrantsInWakeUpOrderSourcesABatchOthersAllTheirWindows) {
  FifoScheduler fifo;
  auto actors = three_actors();
  fifo.attach(actors);
  fifo.actor_got_work(2);
  fifo.actor_got_work(0);
  auto first = fifo.next_actor();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->actor, 2u);
  EXPECT_EQ(first->max_firings, FifoScheduler::kAllWindows);
  auto second = fifo.next_actor();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->actor, 0u);
  EXPECT_EQ(second->max_firings, FifoScheduler::kSourceFirings);
  EXPECT_FALSE(fifo.next_actor());  // end of the iteration
  // An actor with work left goes to the back of the line.
  fifo.actor_got_work(1);
  fifo.firing_ended(0, FiringReport{.firings = 64, .cost = 1000, .has_more_work = true});
  fifo.firing_ended(2, FiringReport{.firings = 5, .cost = 1000, .has_more_work = false});
  EXPECT_EQ(fifo.next_actor()->actor, 1u);
  EXPECT_EQ(fifo.next_actor()->actor, 0u);
  EXPECT_FALSE(fifo.next_actor());
}

TEST(FifoScheduler, SourcesWaitWhileOthersHaveABacklogTheyAreWorkingOff) {
  FifoScheduler fifo;
  auto actors = three_actors();
  std::size_t inbox_1 = 0, inbox_2 = 0;
  actors[1].inbox_length = [&] { return inbox_1; };
  actors[2].inbox_length = [&] { return inbox_2; };
  fifo.attach(actors);
  // Actor 1 runs (another worker) while the others' backlog is over the limit: the source,
  // first in line, lets actor 2 go first and then gets nothing.
  fifo.actor_got_work(1);
  ASSERT_EQ(fifo.next_actor()->actor, 1u);
  fifo.actor_got_work(0);
  fifo.actor_got_work(2);
  inbox_1 = FifoScheduler::kBacklogLimit;
  inbox_2 = 1;
  EXPECT_EQ(fifo.next_actor()->actor, 2u);
  EXPECT_FALSE(fifo.next_actor());
  // At the limit, not over it: the source goes.
  inbox_2 = 0;
  auto source = fifo.next_actor();
  ASSERT_TRUE(source);
  EXPECT_EQ(source->actor, 0u);
  // Over the limit again, but once nobody is left to work the backlog off, waiting could last
  // for ever: the source goes.
  inbox_2 = 5;
  fifo.firing_ended(0, FiringReport{.firings = 64, .cost = 1000, .has_more_work = true});
  EXPECT_FALSE(fifo.next_actor());
  fifo.firing_ended(1, FiringReport{.firings = 9, .cost = 1000, .has_more_work = false});
  EXPECT_FALSE(fifo.next_actor());
  fifo.firing_ended(2, FiringReport{.firings = 1, .cost = 1000, .has_more_work = false});
  source = fifo.next_actor();
  ASSERT_TRUE(source);
  EXPECT_EQ(source->actor, 0u);
}

TEST(FifoScheduler, RegisteredWithAValidatedBatchParameter) {
  SchedulerRegistry registry;
  register_all(registry);
  ASSERT_TRUE(registry.contains("fifo"));
  auto fifo = registry.create("fifo", {{"batch", Value(8)}});
  auto actors = three_actors();
  fifo->attach(actors);
  fifo->actor_got_work(1);
  EXPECT_EQ(fifo->next_actor()->max_firings, 8u);
  try {
    registry.create("fifo", {{"batch", Value(0)}});
    FAIL() << "batch 0 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "fifo scheduler: 'batch' must be a positive int (windows an actor may fire on per "
                 "turn), got 0");
  }
  try {
    registry.create("fifo", {{"basic_quantum_us", Value(500)}});
    FAIL() << "unknown parameter accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "the fifo scheduler has no parameter 'basic_quantum_us' (known: batch, affinity)");
  }
}

// Actors 1 and 2 are at home on workers 1 and 0, actor 3 and the source on none.
std::vector<SchedulableActor> actors_with_homes() {
  std::vector<SchedulableActor> actors(4);
  for (ActorId id = 0; id < 4; ++id)
    actors[id].id = id;
  actors[0].is_source = true;
  actors[1].home = 1;
  actors[2].home = 0;
  return actors;
}

TEST(FifoScheduler, AWorkerTakesItsOwnOrNobodysActorsFirstAndAnothersOnlyWhenNoneIsReady) {
  FifoScheduler fifo;
  auto actors = actors_with_homes();
  fifo.attach(actors);
  for (ActorId id : {1u, 2u, 3u})
    fifo.actor_got_work(id);
  EXPECT_EQ(fifo.next_actor_on(0)->actor, 2u);  // its own, behind worker 1's
  EXPECT_EQ(fifo.next_actor_on(0)->actor, 3u);  // nobody's
  EXPECT_EQ(fifo.next_actor_on(0)->actor, 1u);  // worker 1's: nothing else is ready
  EXPECT_FALSE(fifo.next_actor_on(0));
  fifo.actor_got_work(1);
  fifo.actor_got_work(0);
  EXPECT_EQ(fifo.next_actor_on(0)->actor, 0u);  // a source is nobody's
  EXPECT_EQ(fifo.next_actor_on(1)->actor, 1u);
  // Without a worker, the first in line.
  fifo.actor_got_work(1);
  fifo.actor_got_work(2);
  EXPECT_EQ(fifo.next_actor()->actor, 1u);
  EXPECT_EQ(fifo.next_actor()->actor, 2u);
}

TEST(FifoScheduler, WithoutAffinityEveryWorkerTakesTheFirstInLine) {
  SchedulerRegistry registry;
  register_all(registry);
  auto fifo = registry.create("fifo", {{"affinity", Value(false)}});
  auto actors = actors_with_homes();
  fifo->attach(actors);
  for (ActorId id : {1u, 2u})
    fifo->actor_got_work(id);
  EXPECT_EQ(fifo->next_actor_on(0)->actor, 1u);
  EXPECT_EQ(fifo->next_actor_on(1)->actor, 2u);
  try {
    registry.create("fifo", {{"affinity", Value("yes")}});
    FAIL() << "affinity 'yes' accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "fifo scheduler: 'affinity' must be true or false (whether workers prefer their "
                 "own replicas), got \"yes\"");
  }
}

}  // namespace
}  // namespace cwf::schedulers
