// nats_publish and nats_subscribe between two engines through a nats-server on the loopback:
// subjects from templates, wildcards, content filters, end markers, queue groups, bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "actors/actor_type_util.hpp"
#include "actors/generator.hpp"
#include "nats_test_engine.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::pubsub::testing {
namespace {

std::unique_ptr<Actor> generator(std::int64_t count, const std::string& value) {
  return make_actor<Actor>(actors::generator_type(),
                           {{"count", Value(count)}, {"value", Value(value)}});
}

std::unique_ptr<NatsSubscribe> subscriber(const NatsServerProcess& server,
                                          std::map<std::string, Value> values) {
  values["servers"] = Value(server.url());
  return make_actor<NatsSubscribe>(nats_subscribe_type(), std::move(values));
}

std::unique_ptr<NatsPublish> publisher(const NatsServerProcess& server,
                                       std::map<std::string, Value> values) {
  values["servers"] = Value(server.url());
  return make_actor<NatsPublish>(nats_publish_type(), std::move(values));
}

TEST(NatsLoopback, RecordsCrossEnginesInOrderThroughSubjectTemplatesWildcardsAndAFilter) {
  CWF_START_NATS(server);
  Engine consumer("consumer");
  NatsSubscribe& sub =
      consumer.add("sub", subscriber(*server, {{"subject", Value("orders.>")},
                                               {"where", Value("/amount >= 10")},
                                               {"count", Value(std::int64_t{90})}}));
  Gather& got = consumer.add("got", std::make_unique<Gather>());
  consumer.connect("sub", "got");
  consumer.start();
  ASSERT_TRUE(eventually([&] { return sub.subscribed(); })) << "the subscriber never subscribed";

  Engine producer("producer");
  producer.add("gen", generator(100, "{id: i, region: i % 2 == 0 ? 'eu' : 'us', amount: i}"));
  NatsPublish& pub =
      producer.add("pub", publisher(*server, {{"subject", Value("orders.{/region}")}}));
  producer.connect("gen", "pub");
  producer.start();
  ASSERT_TRUE(producer.wait());
  EXPECT_EQ(pub.published(), 100u);
  EXPECT_EQ(pub.failed(), 0u);
  ASSERT_TRUE(consumer.wait()) << "received " << got.size();
  EXPECT_EQ(got.ints("id"), iota(10, 100));
  std::vector<Value> tokens = got.tokens();
  EXPECT_EQ(tokens.front().to_json(), R"({"id":10,"region":"eu","amount":10})");
  EXPECT_EQ(tokens.back().to_json(), R"({"id":99,"region":"us","amount":99})");
  EXPECT_EQ(consumer.errors("sub"), 0u);
}

TEST(NatsLoopback, OnlyTheSubscribedSubjectArrivesAndAnEndMarkerEndsTheStream) {
  CWF_START_NATS(server);
  Engine consumer("consumer");
  NatsSubscribe& sub = consumer.add("sub", subscriber(*server, {{"subject", Value("orders.*.paid")},
                                                                {"until", Value("exists(/eos)")}}));
  Gather& got = consumer.add("got", std::make_unique<Gather>());
  consumer.connect("sub", "got");
  consumer.start();
  ASSERT_TRUE(eventually([&] { return sub.subscribed(); }));

  Engine producer("producer");
  // 30 records over three subjects, then the end marker on a subscribed one.
  producer.add("gen", generator(31,
                                "i < 30 ? {id: i, state: ['eu.paid', 'eu.open', "
                                "'us.paid.late'][i % 3]} : {eos: true, state: 'us.paid'}"));
  producer.add("pub", publisher(*server, {{"subject", Value("orders.{/state}")}}));
  producer.connect("gen", "pub");
  producer.start();
  ASSERT_TRUE(producer.wait());
  ASSERT_TRUE(consumer.wait()) << "the end marker did not end the subscriber";
  std::vector<std::int64_t> expected;
  for (std::int64_t i = 0; i < 30; i += 3)
    expected.push_back(i);
  EXPECT_EQ(got.ints("id"), expected);
}

// A subscriber with nothing to read waits for the delivery thread's wake: however long it idles,
// it is fired once to find its queue empty and then about once per message (a poll every
// millisecond would have fired hundreds of times in the pause below).
TEST(NatsLoopback, AnIdleSubscriberWaitsForItsMessagesInsteadOfPolling) {
  CWF_START_NATS(server);
  Engine consumer("consumer");
  NatsSubscribe& sub = consumer.add(
      "sub", subscriber(*server, {{"subject", Value("ticks")}, {"count", Value(std::int64_t{3})}}));
  Gather& got = consumer.add("got", std::make_unique<Gather>());
  consumer.connect("sub", "got");
  consumer.start();
  ASSERT_TRUE(eventually([&] { return sub.subscribed(); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));

  Engine producer("producer");
  producer.add("gen", generator(3, "{id: i}"));
  producer.add("pub", publisher(*server, {{"subject", Value("ticks")}}));
  producer.connect("gen", "pub");
  producer.start();
  ASSERT_TRUE(producer.wait());
  ASSERT_TRUE(consumer.wait()) << "received " << got.size();
  EXPECT_EQ(got.ints("id"), iota(0, 3));
  EXPECT_LE(consumer.firings("sub"), 8u);
}

TEST(NatsLoopback, AQueueGroupSplitsMessagesBetweenItsMembersWithoutDuplicates) {
  CWF_START_NATS(server);
  constexpr std::int64_t kEvents = 400;
  std::vector<std::unique_ptr<Engine>> members;
  std::vector<Gather*> gathered;
  for (int m = 0; m < 2; ++m) {
    auto engine = std::make_unique<Engine>("member" + std::to_string(m));
    NatsSubscribe& sub = engine->add(
        "sub", subscriber(*server, {{"subject", Value("jobs")}, {"queue", Value("workers")}}));
    gathered.push_back(&engine->add("got", std::make_unique<Gather>()));
    engine->connect("sub", "got");
    engine->start();
    ASSERT_TRUE(eventually([&] { return sub.subscribed(); }));
    members.push_back(std::move(engine));
  }
  Engine producer("producer");
  producer.add("gen", generator(kEvents, "{id: i}"));
  producer.add("pub", publisher(*server, {{"subject", Value("jobs")}}));
  producer.connect("gen", "pub");
  producer.start();
  ASSERT_TRUE(producer.wait());
  ASSERT_TRUE(eventually([&] { return gathered[0]->size() + gathered[1]->size() >= kEvents; }));
  for (auto& m : members)
    m->stop_and_wait();
  std::vector<std::int64_t> a = gathered[0]->ints("id"), b = gathered[1]->ints("id");
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
  std::set<std::int64_t> all(a.begin(), a.end());
  all.insert(b.begin(), b.end());
  EXPECT_EQ(a.size() + b.size(), static_cast<std::size_t>(kEvents)) << "duplicates";
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kEvents));
  EXPECT_GT(a.size(), 0u) << "the group gave everything to one member";
  EXPECT_GT(b.size(), 0u) << "the group gave everything to one member";
}

TEST(NatsLoopback, MessagesThatAreNotJsonObjectsAreCountedAsErrorsNotEmitted) {
  CWF_START_NATS(server);
  Engine consumer("consumer");
  NatsSubscribe& sub = consumer.add(
      "sub", subscriber(*server, {{"subject", Value("raw")}, {"count", Value(std::int64_t{2})}}));
  Gather& got = consumer.add("got", std::make_unique<Gather>());
  consumer.connect("sub", "got");
  consumer.start();
  ASSERT_TRUE(eventually([&] { return sub.subscribed(); }));
  NatsConnectionOptions options;
  options.servers = {server->url()};
  NatsConnection raw(options);
  for (const char* text : {"{\"a\":1}", "not json", "[1,2]", "{\"a\":2}"})
    ASSERT_EQ(natsConnection_PublishString(raw.get(), "raw", text), NATS_OK);
  std::string error;
  ASSERT_TRUE(raw.flush(10 * kSecond, error)) << error;
  ASSERT_TRUE(consumer.wait());
  EXPECT_EQ(got.ints("a"), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(consumer.errors("sub"), 2u);
}

// Passes tokens on; its first firing waits until released (holding up the one worker).
class Gate final : public Actor {
 public:
  Gate() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    entered = true;
    while (!released)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    context.emit(context.token());
  }
  std::atomic<bool> entered{false}, released{false};
};

TEST(NatsLoopback, MessagesBeyondMaxPendingAreDroppedCountedAndReported) {
  // A subject cannot be slowed down: while the workflow does not take its messages, the
  // subscriber holds at most max_pending of them and drops the rest, as dropped events.
  CWF_START_NATS(server);
  Engine consumer("consumer");
  NatsSubscribe& sub = consumer.add(
      "sub",
      subscriber(*server, {{"subject", Value("burst")}, {"max_pending", Value(std::int64_t{10})}}));
  Gate& gate = consumer.add("gate", std::make_unique<Gate>());
  Gather& got = consumer.add("got", std::make_unique<Gather>());
  consumer.connect("sub", "gate");
  consumer.connect("gate", "got");
  consumer.start();
  ASSERT_TRUE(eventually([&] { return sub.subscribed(); }));
  NatsConnectionOptions options;
  options.servers = {server->url()};
  NatsConnection raw(options);
  std::string error;
  ASSERT_EQ(natsConnection_PublishString(raw.get(), "burst", "{\"i\":0}"), NATS_OK);
  ASSERT_TRUE(raw.flush(10 * kSecond, error)) << error;
  ASSERT_TRUE(eventually([&] { return gate.entered.load(); }));
  constexpr std::uint64_t kMessages = 100;
  for (std::uint64_t i = 1; i < kMessages; ++i) {
    std::string text = "{\"i\":" + std::to_string(i) + "}";
    ASSERT_EQ(natsConnection_PublishString(raw.get(), "burst", text.c_str()), NATS_OK);
  }
  ASSERT_TRUE(raw.flush(10 * kSecond, error)) << error;
  ASSERT_TRUE(eventually([&] { return sub.received() + sub.shed() == kMessages; }));
  // The worker is held up by the gate: nothing was taken after the first message.
  EXPECT_EQ(sub.received(), 11u);
  EXPECT_EQ(sub.shed(), kMessages - 11);
  gate.released = true;
  ASSERT_TRUE(eventually([&] { return got.size() == 11; }));
  consumer.stop_and_wait();
  EXPECT_EQ(got.ints("i"), iota(0, 11));
  EXPECT_EQ(consumer.dropped("sub"), kMessages - 11);
}

TEST(NatsLoopback, ARecordWithoutAValidSubjectIsCountedAsFailed) {
  CWF_START_NATS(server);
  Engine producer("producer");
  producer.add("gen", generator(4, "{id: i, region: ['eu', '', 'a b', 'us'][i]}"));
  NatsPublish& pub =
      producer.add("pub", publisher(*server, {{"subject", Value("orders.{/region}")}}));
  producer.connect("gen", "pub");
  producer.start();
  ASSERT_TRUE(producer.wait());
  EXPECT_EQ(pub.published(), 2u);
  EXPECT_EQ(pub.failed(), 2u);
  EXPECT_EQ(producer.errors("pub"), 2u);
}

std::string param_error(const ActorType& type, std::map<std::string, Value> values) {
  try {
    type.factory(actors::with_defaults(Params(std::move(values), {}, ""), type.params));
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return "";
}

TEST(NatsParams, BadSubjectsTemplatesAndReplicaSettingsAreRejectedAtLoadTime) {
  const ActorType sub = nats_subscribe_type(), pub = nats_publish_type();
  EXPECT_EQ(param_error(sub, {{"subject", Value("a..b")}}).substr(0, 8), "subject:");
  EXPECT_EQ(param_error(sub, {{"subject", Value("a.>.b")}}).substr(0, 8), "subject:");
  EXPECT_EQ(param_error(sub, {{"subject", Value("a.*.>")}}), "");
  EXPECT_EQ(param_error(sub, {}).substr(0, 8), "subject:");
  EXPECT_EQ(param_error(sub, {{"subject", Value("a")}, {"where", Value("/x >")}}).substr(0, 6),
            "where:");
  EXPECT_EQ(param_error(sub, {{"replica", Value("r1")}}).substr(0, 8), "replica:");
  EXPECT_EQ(
      param_error(sub, {{"replica", Value("r.1")}, {"dispatch_group", Value("g")}}).substr(0, 8),
      "replica:");
  EXPECT_EQ(param_error(sub, {{"replica", Value("r1")}, {"dispatch_group", Value("g")}}), "");
  EXPECT_EQ(param_error(pub, {{"subject", Value("orders.{/region")}}),
            "subject: column 8: '{' is never closed");
  EXPECT_EQ(param_error(pub, {{"subject", Value("orders.*")}}).substr(0, 8), "subject:");
  EXPECT_EQ(param_error(pub, {{"subject", Value("a.{/x +}")}}).substr(0, 8), "subject:");
  EXPECT_EQ(param_error(pub, {{"subject", Value("a")}, {"servers", Value("nowhere")}}).substr(0, 8),
            "servers:");
}

TEST(NatsSubjectTemplate, RendersStringsAsTheyAreAndOtherValuesAsJson) {
  SubjectTemplate t("orders.{/region}.{/n}.{lower(/c)}");
  std::string out;
  t.render(parse_json(R"({"region":"eu","n":7,"c":"X"})"), out);
  EXPECT_EQ(out, "orders.eu.7.x");
  EXPECT_THROW(t.render(parse_json(R"({"region":"e u","n":7,"c":"X"})"), out),
               std::invalid_argument);
  SubjectTemplate braces("a.{ {k: 'v}'}/k }");
  braces.render(Value(), out);
  EXPECT_EQ(out, "a.v}");  // valid: a brace is an ordinary subject character
}

}  // namespace
}  // namespace cwf::pubsub::testing
