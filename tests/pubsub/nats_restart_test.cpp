// A broker restart in the middle of a stream between two engines. The guarantee tested (and
// documented in docs/pubsub.md): NATS core delivers at most once; the publisher keeps what it
// publishes while the server is away in its reconnect buffer and sends it after the reconnect,
// and the subscriber's subscription is re-created on its reconnect. So when the subscriber is
// back before the publisher (a shorter reconnect_wait), every event published once the
// publisher has noticed the disconnect arrives, in order; only events in flight at the moment of
// the kill (written to the dead server, or on their way to the subscriber) can be lost.
#include <gtest/gtest.h>

#include <algorithm>

#include "nats_test_engine.hpp"

namespace cwf::pubsub::testing {
namespace {

struct Pair {
  Engine producer{"producer"}, consumer{"consumer"};
  Feed* feed = nullptr;
  NatsPublish* pub = nullptr;
  NatsSubscribe* sub = nullptr;
  Gather* got = nullptr;

  // The subscriber reconnects every 20 ms, the publisher every 1.5 s: the subscription is back
  // on the restarted server long before the publisher sends what it buffered.
  Pair(const NatsServerProcess& server, std::map<std::string, Value> sub_params) {
    sub_params["subject"] = Value("stream");
    sub_params["servers"] = Value(server.url());
    sub_params["reconnect_wait"] = Value(20 * kMillisecond);
    sub = &consumer.add("sub", make_actor<NatsSubscribe>(nats_subscribe_type(), sub_params));
    got = &consumer.add("got", std::make_unique<Gather>());
    consumer.connect("sub", "got");
    feed = &producer.add("feed", std::make_unique<Feed>());
    pub = &producer.add("pub",
                        make_actor<NatsPublish>(nats_publish_type(),
                                                {{"subject", Value("stream")},
                                                 {"servers", Value(server.url())},
                                                 {"reconnect_wait", Value(1500 * kMillisecond)},
                                                 {"flush_timeout", Value(30 * kSecond)}}));
    producer.connect("feed", "pub");
  }
  void start() {
    consumer.start();
    ASSERT_TRUE(eventually([&] { return sub->subscribed(); }));
    producer.start();
  }
  void push(std::int64_t from, std::int64_t to) {
    for (std::int64_t i = from; i < to; ++i)
      feed->push(Value::record({{"seq", Value(i)}}));
  }
  bool both_disconnected() const {
    return pub->connection() && sub->connection() && pub->connection()->disconnects() > 0 &&
           sub->connection()->disconnects() > 0;
  }
};

TEST(NatsRestart, EverythingPublishedWhileTheBrokerIsDownArrivesInOrderAfterItsRestart) {
  CWF_START_NATS(server);
  constexpr std::int64_t kPerPhase = 200;
  Pair pair(*server, {{"count", Value(3 * kPerPhase)}});
  pair.start();
  // Phase 1, broker up. Everything arrives before the kill, so nothing is in flight at it.
  pair.push(0, kPerPhase);
  ASSERT_TRUE(eventually([&] { return pair.got->size() == kPerPhase; })) << pair.got->size();
  server->kill();
  ASSERT_TRUE(eventually([&] { return pair.both_disconnected(); }));
  // Phase 2, broker down: the publisher takes everything into its reconnect buffer.
  pair.push(kPerPhase, 2 * kPerPhase);
  ASSERT_TRUE(eventually([&] { return pair.pub->published() == 2 * kPerPhase; }));
  EXPECT_EQ(pair.pub->failed(), 0u);
  server->start();
  // Phase 3, broker back.
  pair.push(2 * kPerPhase, 3 * kPerPhase);
  pair.feed->close();
  ASSERT_TRUE(pair.producer.wait());
  ASSERT_TRUE(pair.consumer.wait()) << "received " << pair.got->size();
  EXPECT_EQ(pair.got->ints("seq"), iota(0, 3 * kPerPhase));
  EXPECT_EQ(pair.producer.errors("pub"), 0u);
}

TEST(NatsRestart, AKillMidStreamLosesAtMostTheEventsInFlightAndKeepsTheRestInOrder) {
  CWF_START_NATS(server);
  constexpr std::int64_t kEvents = 1500, kKillAt = 500, kRestartAt = 900;
  Pair pair(*server, {{"until", Value("exists(/eos)")}});
  pair.start();
  std::int64_t received_before_kill = 0, first_buffered = -1;
  for (std::int64_t i = 0; i < kEvents; ++i) {
    if (i == kKillAt) {
      received_before_kill = static_cast<std::int64_t>(pair.got->size());
      server->kill();
    }
    if (i > kKillAt && first_buffered < 0 && pair.pub->connection() &&
        pair.pub->connection()->disconnects() > 0)
      first_buffered = i;  // published after the client knew: goes to the reconnect buffer
    if (i == kRestartAt) {
      ASSERT_GE(first_buffered, 0) << "the publisher never noticed the kill";
      server->start();
    }
    pair.push(i, i + 1);
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  pair.feed->push(Value::record({{"eos", Value(true)}}));
  pair.feed->close();
  ASSERT_TRUE(pair.producer.wait());
  ASSERT_TRUE(pair.consumer.wait()) << "received " << pair.got->size();
  std::vector<std::int64_t> seq = pair.got->ints("seq");
  // In order, no duplicates.
  EXPECT_TRUE(std::adjacent_find(seq.begin(), seq.end(), [](auto a, auto b) { return a >= b; }) ==
              seq.end());
  // Lost events lie between what had arrived at the kill and the first one buffered.
  std::vector<std::int64_t> all = iota(0, kEvents), lost;
  std::set_difference(all.begin(), all.end(), seq.begin(), seq.end(), std::back_inserter(lost));
  for (std::int64_t l : lost) {
    EXPECT_GE(l, received_before_kill) << "an event that had arrived is missing";
    EXPECT_LT(l, first_buffered) << "an event published after the disconnect was lost";
  }
  std::cerr << "kill at " << kKillAt << ": " << received_before_kill
            << " had arrived, buffering from " << first_buffered << ", lost " << lost.size()
            << "\n";
}

TEST(NatsRestart, ASubscriberStartedBeforeItsBrokerSubscribesOnceTheBrokerIsUp) {
  CWF_START_NATS(server);
  server->kill();
  Engine consumer("consumer");
  NatsSubscribe& sub = consumer.add(
      "sub", make_actor<NatsSubscribe>(nats_subscribe_type(),
                                       {{"subject", Value("late")},
                                        {"count", Value(std::int64_t{5})},
                                        {"servers", Value(server->url())},
                                        {"reconnect_wait", Value(20 * kMillisecond)}}));
  Gather& got = consumer.add("got", std::make_unique<Gather>());
  consumer.connect("sub", "got");
  consumer.start();
  ASSERT_TRUE(eventually([&] { return sub.initialized(); }));  // without waiting for the broker
  EXPECT_FALSE(sub.subscribed());
  server->start();
  ASSERT_TRUE(server->wait_for_subscriptions("late", 1));
  EXPECT_GE(sub.connection()->reconnects(), 1u);
  NatsConnectionOptions options;
  options.servers = {server->url()};
  NatsConnection raw(options);
  for (int i = 0; i < 5; ++i)
    natsConnection_PublishString(raw.get(), "late", ("{\"n\":" + std::to_string(i) + "}").c_str());
  std::string error;
  ASSERT_TRUE(raw.flush(10 * kSecond, error)) << error;
  ASSERT_TRUE(consumer.wait());
  EXPECT_EQ(got.ints("n"), iota(0, 5));
}

TEST(NatsRestart, AStopEndsASubscriberWhoseBrokerIsAway) {
  CWF_START_NATS(server);
  server->kill();
  Engine consumer("consumer");
  consumer.add(
      "sub", make_actor<NatsSubscribe>(nats_subscribe_type(), {{"subject", Value("x")},
                                                               {"servers", Value(server->url())}}));
  consumer.add("got", std::make_unique<Gather>());
  consumer.connect("sub", "got");
  consumer.start();
  consumer.stop();
  EXPECT_TRUE(consumer.wait(std::chrono::seconds(30)));
}

}  // namespace
}  // namespace cwf::pubsub::testing
