// Instance dispatching: a dispatcher and two replicas of a dispatch group, each an engine of its
// own. Every instance must reach exactly one replica (disjoint sets whose union is every
// instance), with its events in order.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "actors/generator.hpp"
#include "actors/pubsub/nats_dispatch.hpp"
#include "nats_test_engine.hpp"

namespace cwf::pubsub::testing {
namespace {

TEST(NatsDispatch, TwoReplicasReceiveDisjointInstanceSetsWhoseUnionIsEverythingEachInOrder) {
  CWF_START_NATS(server);
  constexpr std::int64_t kInstances = 40, kSteps = 15;
  std::vector<std::unique_ptr<Engine>> replicas;
  std::vector<NatsSubscribe*> subs;
  std::vector<Gather*> gathered;
  for (const char* name : {"r1", "r2"}) {
    auto engine = std::make_unique<Engine>(name);
    subs.push_back(&engine->add(
        "sub",
        make_actor<NatsSubscribe>(nats_subscribe_type(), {{"replica", Value(name)},
                                                          {"dispatch_group", Value("engines")},
                                                          {"servers", Value(server->url())}})));
    gathered.push_back(&engine->add("got", std::make_unique<Gather>()));
    engine->connect("sub", "got");
    engine->start();
    ASSERT_TRUE(eventually([&] { return subs.back()->subscribed(); }));
    replicas.push_back(std::move(engine));
  }
  Engine dispatcher("dispatcher");
  // Instances interleaved: step s of every instance before step s + 1 of any.
  dispatcher.add("gen", make_actor<Actor>(
                            actors::generator_type(),
                            {{"count", Value(kInstances * kSteps)},
                             {"value", Value("{order: i % " + std::to_string(kInstances) +
                                             ", step: i / " + std::to_string(kInstances) + "}")}}));
  NatsDispatch& dispatch = dispatcher.add(
      "dispatch",
      make_actor<NatsDispatch>(nats_dispatch_type(), {{"instance", Value("/order")},
                                                      {"dispatch_group", Value("engines")},
                                                      {"servers", Value(server->url())}}));
  dispatcher.connect("gen", "dispatch");
  dispatcher.start();
  ASSERT_TRUE(dispatcher.wait());
  EXPECT_EQ(dispatch.published(), static_cast<std::uint64_t>(kInstances * kSteps));
  EXPECT_EQ(dispatch.failed(), 0u);
  ASSERT_TRUE(
      eventually([&] { return gathered[0]->size() + gathered[1]->size() >= kInstances * kSteps; }));
  for (auto& r : replicas)
    r->stop_and_wait();

  std::set<std::int64_t> all;
  std::vector<std::set<std::int64_t>> owned(2);
  for (int r = 0; r < 2; ++r) {
    std::map<std::int64_t, std::vector<std::int64_t>> steps;
    for (const Value& v : gathered[r]->tokens())
      steps[v.field("order")->as_int()].push_back(v.field("step")->as_int());
    for (const auto& [order, seen] : steps) {
      EXPECT_EQ(seen, iota(0, kSteps)) << "instance " << order << " at replica " << r;
      owned[r].insert(order);
      EXPECT_TRUE(all.insert(order).second) << "instance " << order << " reached both replicas";
    }
    EXPECT_EQ(subs[r]->claimed(), owned[r].size());
    EXPECT_FALSE(owned[r].empty()) << "replica " << r << " took no instance";
  }
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kInstances));
  EXPECT_EQ(dispatch.owners().size(), static_cast<std::size_t>(kInstances));
}

TEST(NatsDispatch, WithoutAnyReplicaTheEventsFailAfterTheClaimTimeout) {
  CWF_START_NATS(server);
  Engine dispatcher("dispatcher");
  dispatcher.add("gen",
                 make_actor<Actor>(actors::generator_type(), {{"count", Value(std::int64_t{2})},
                                                              {"value", Value("{order: i}")}}));
  NatsDispatch& dispatch = dispatcher.add(
      "dispatch",
      make_actor<NatsDispatch>(nats_dispatch_type(), {{"instance", Value("/order")},
                                                      {"dispatch_group", Value("nobody")},
                                                      {"claim_timeout", Value(200 * kMillisecond)},
                                                      {"servers", Value(server->url())}}));
  dispatcher.connect("gen", "dispatch");
  dispatcher.start();
  ASSERT_TRUE(dispatcher.wait());
  EXPECT_EQ(dispatch.published(), 0u);
  EXPECT_EQ(dispatch.failed(), 2u);
  EXPECT_EQ(dispatcher.errors("dispatch"), 2u);
}

// A claim is asked without holding a worker: on one worker, while no replica answers, the rest of
// the workflow runs to its end; once a replica joins, the waiting records go to it in order, and
// the run's input does not end before they did.
TEST(NatsDispatch, WaitingForAClaimHoldsNoWorkerAndTheRecordsFollowOnceAReplicaTakesIt) {
  CWF_START_NATS(server);
  Engine dispatcher("dispatcher");  // the scheduled director, fifo, one worker
  dispatcher.add("gen", make_actor<Actor>(actors::generator_type(),
                                          {{"count", Value(std::int64_t{5})},
                                           {"value", Value("{order: 'late', step: i}")}}));
  NatsDispatch& dispatch = dispatcher.add(
      "dispatch",
      make_actor<NatsDispatch>(nats_dispatch_type(), {{"instance", Value("/order")},
                                                      {"dispatch_group", Value("late")},
                                                      {"servers", Value(server->url())}}));
  dispatcher.add(
      "ticks", make_actor<Actor>(actors::generator_type(), {{"count", Value(std::int64_t{20})},
                                                            {"interval", Value(10 * kMillisecond)},
                                                            {"value", Value("i")}}));
  Gather& ticked = dispatcher.add("ticked", std::make_unique<Gather>());
  dispatcher.connect("gen", "dispatch");
  dispatcher.connect("ticks", "ticked");
  dispatcher.start();
  // The other branch ends while the claim is still unanswered.
  ASSERT_TRUE(eventually([&] { return ticked.size() == 20; }));
  EXPECT_EQ(dispatch.published(), 0u);

  Engine replica("replica");
  NatsSubscribe& sub = replica.add(
      "sub", make_actor<NatsSubscribe>(nats_subscribe_type(), {{"replica", Value("r1")},
                                                               {"dispatch_group", Value("late")},
                                                               {"servers", Value(server->url())}}));
  Gather& got = replica.add("got", std::make_unique<Gather>());
  replica.connect("sub", "got");
  replica.start();
  ASSERT_TRUE(dispatcher.wait());
  EXPECT_EQ(dispatch.published(), 5u);
  EXPECT_EQ(dispatch.failed(), 0u);
  ASSERT_TRUE(eventually([&] { return got.size() == 5; }));
  EXPECT_EQ(got.ints("step"), iota(0, 5));
  EXPECT_EQ(sub.claimed(), 1u);
  replica.stop_and_wait();
}

}  // namespace
}  // namespace cwf::pubsub::testing
