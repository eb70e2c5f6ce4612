// The broker actor: operations on its ports, deliveries and rejections, malformed input, its
// parameters; and a random overlay of broker actors run as a workflow against the oracle.
#include <gtest/gtest.h>

#include <random>

#include "actors/pubsub/broker_actor.hpp"
#include "overlay_scenario.hpp"
#include "pubsub_test_util.hpp"
#include "tests/runtime/test_actors.hpp"

namespace cwf::pubsub {
namespace {

using cwf::testing::Collect;
using testing::Op;
using testing::PhasedScript;
using testing::Script;

std::unique_ptr<Actor> make_broker(std::vector<std::string> neighbours = {}) {
  std::vector<Value> names;
  for (auto& n : neighbours)
    names.push_back(Value(n));
  std::map<std::string, Value> values{{"neighbours", Value::array(std::move(names))}};
  return broker_type().factory(Params(std::move(values), {}, ""));
}

std::string factory_error(std::vector<Value> neighbours) {
  try {
    broker_type().factory(Params({{"neighbours", Value::array(std::move(neighbours))}}, {}, ""));
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return "";
}

Value parse_json_like(std::initializer_list<std::pair<std::string_view, Value>> fields) {
  return Value::record(fields);
}

TEST(BrokerActor, DeliversOnePerSubscriberAndRejectsWhatNoAdvertisementPromised) {
  Workflow wf("single");
  auto filter = [](std::string_view a, std::string_view op, Value v) {
    return Value::array({Value::array({Value(a), Value(op), std::move(v)})});
  };
  std::vector<std::pair<Timestamp, Value>> ops{
      {0,
       parse_json_like({{"op", "advertise"}, {"publisher", "feed"}, {"filter", Value::array({})}})},
      {0, parse_json_like({{"op", "subscribe"},
                           {"subscriber", "alice"},
                           {"id", "cheap"},
                           {"filter", filter("price", "<", 10)}})},
      {0, parse_json_like({{"op", "subscribe"},
                           {"subscriber", "alice"},
                           {"id", "ab"},
                           {"filter", filter("symbol", "prefix", "AB")}})},
      {0, parse_json_like({{"op", "subscribe"},
                           {"subscriber", "bob"},
                           {"id", 1},
                           {"filter", filter("symbol", "=", "ABC")}})},
      {0, parse_json_like({{"op", "subscribe"},
                           {"subscriber", "carol"},
                           {"filter", filter("price", "like", 3)}})},  // malformed: counted
      {1, parse_json_like({{"op", "publish"},
                           {"publication", Value::record({{"symbol", "ABC"}, {"price", 12}})}})},
      {1, parse_json_like({{"op", "publish"},
                           {"publication", Value::record({{"symbol", "XY"}, {"price", 2}})}})},
      {2, parse_json_like({{"op", "unsubscribe"}, {"subscriber", "alice"}, {"id", "ab"}})},
      {2, parse_json_like({{"op", "unadvertise"}, {"publisher", "feed"}})},
      {2, parse_json_like({{"op", "advertise"},
                           {"publisher", "feed"},
                           {"id", "cheap"},
                           {"filter", filter("price", "<", 100)}})},
      {3, parse_json_like({{"op", "publish"},
                           {"publication", Value::record({{"symbol", "ABD"}, {"price", 5}})}})},
      {3, parse_json_like({{"op", "publish"},
                           {"publication", Value::record({{"symbol", "ABC"}, {"price", 500}})}})},
  };
  wf.add("ops", std::make_unique<Script>(ops));
  wf.add("broker", make_broker());
  auto deliveries = std::make_unique<Collect>();
  auto rejected = std::make_unique<Collect>();
  Collect& got = *deliveries;
  Collect& refused = *rejected;
  wf.add("deliveries", std::move(deliveries));
  wf.add("rejected", std::move(rejected));
  wf.connect("ops", "out", "broker", "ops");
  wf.connect("broker", "deliveries", "deliveries", "in");
  wf.connect("broker", "rejected", "rejected", "in");
  RunSummary summary = testing::run_on_virtual_clock(wf, 1);
  std::vector<std::string> lines;
  for (const Value& v : got.tokens())
    lines.push_back(v.to_json());
  EXPECT_EQ(lines, (std::vector<std::string>{
                       R"({"subscriber":"alice","publication":{"symbol":"ABC","price":12}})",
                       R"({"subscriber":"bob","publication":{"symbol":"ABC","price":12}})",
                       R"({"subscriber":"alice","publication":{"symbol":"XY","price":2}})",
                       R"({"subscriber":"alice","publication":{"symbol":"ABD","price":5}})",
                   }));
  ASSERT_EQ(refused.tokens().size(), 1u);
  EXPECT_EQ(refused.tokens()[0].to_json(), R"({"symbol":"ABC","price":500})");
  EXPECT_EQ(testing::errors(summary, "broker"), 2u);  // carol's filter, the rejection
}

TEST(BrokerActor, DedicatedPortsAndMalformedOperations) {
  Workflow wf("ports");
  wf.add("subs", std::make_unique<Script>(std::vector<std::pair<Timestamp, Value>>{
                     {0, Value::record({{"subscriber", "a"},
                                        {"filter", Value::array({Value::array(
                                                       {Value("x"), Value(">"), Value(1)})})}})},
                     {0, Value::record({{"subscriber", "b"}})},  // no filter
                     {0, Value::record({{"subscriber", 3.5}, {"filter", Value::array({})}})},
                     {0, Value(7)},  // not a record
                 }));
  wf.add("ads", std::make_unique<Script>(std::vector<std::pair<Timestamp, Value>>{
                    {0, Value::record({{"publisher", "p"}, {"filter", Value::array({})}})}}));
  wf.add("pubs", std::make_unique<Script>(std::vector<std::pair<Timestamp, Value>>{
                     {1, Value::record({{"x", 2}})}, {1, Value::record({{"x", 0}})}}));
  wf.add("broker", make_broker());
  auto sink = std::make_unique<Collect>();
  Collect& got = *sink;
  wf.add("out", std::move(sink));
  wf.connect("subs", "out", "broker", "subscribe");
  wf.connect("ads", "out", "broker", "advertise");
  wf.connect("pubs", "out", "broker", "publish");
  wf.connect("broker", "deliveries", "out", "in");
  RunSummary summary = testing::run_on_virtual_clock(wf, 1);
  ASSERT_EQ(got.tokens().size(), 1u);
  EXPECT_EQ(got.tokens()[0].to_json(), R"({"subscriber":"a","publication":{"x":2}})");
  EXPECT_EQ(testing::errors(summary, "broker"), 3u);
}

TEST(BrokerActor, MessagesForClientsNameWhatIsWrong) {
  using Kind = ClientOperation::Kind;
  auto error = [](Kind kind, const Value& token) {
    try {
      read_client_operation(kind, token);
    } catch (const FilterError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(Kind::subscribe, Value::record({{"subscriber", "b"}})),
            R"(subscribe: expected a field 'filter' (a list of predicates) in {"subscriber":"b"})");
  EXPECT_EQ(error(Kind::advertise, Value::record({{"filter", Value::array({})}})),
            R"(advertise: expected a field 'publisher' (a string) in {"filter":[]})");
  EXPECT_EQ(
      error(Kind::subscribe,
            Value::record({{"subscriber", "b"},
                           {"filter", Value::array({Value::array({Value("x"), Value("<")})})}})),
      R"(subscribe: filter: predicate 1 ["x","<"]: '<' expects one value)");
  EXPECT_EQ(error(Kind::publish, Value(3)), "publish: expected a record, got 3");
  try {
    read_any_client_operation(Value::record({{"op", "subscrbe"}}));
    FAIL();
  } catch (const FilterError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        R"(ops: expected 'op' to be subscribe, unsubscribe, advertise, unadvertise or publish in {"op":"subscrbe"})");
  }
}

TEST(BrokerActor, NeighboursMakePortsAndMustBeDistinctNames) {
  auto broker = make_broker({"east", "west"});
  EXPECT_GE(broker->output_index("to_east"), 0);
  EXPECT_GE(broker->output_index("to_west"), 0);
  EXPECT_EQ(factory_error({Value("a"), Value("a")}), "neighbours: 'a' is listed twice");
  EXPECT_EQ(factory_error({Value("a.b")}),
            "neighbours: 'a.b' is not an actor name (letters, digits, _ and -)");
}

// ---- the overlay property as a workflow ----

Value op_record(const Op& op) {
  switch (op.kind) {
    case Op::Kind::subscribe:
      return Value::record({{"op", "subscribe"},
                            {"subscriber", Value(op.key.client)},
                            {"id", Value(op.key.id)},
                            {"filter", op.filter.to_value()}});
    case Op::Kind::unsubscribe:
      return Value::record(
          {{"op", "unsubscribe"}, {"subscriber", Value(op.key.client)}, {"id", Value(op.key.id)}});
    case Op::Kind::advertise:
      return Value::record({{"op", "advertise"},
                            {"publisher", Value(op.key.client)},
                            {"id", Value(op.key.id)},
                            {"filter", op.filter.to_value()}});
    case Op::Kind::unadvertise:
      return Value::record(
          {{"op", "unadvertise"}, {"publisher", Value(op.key.client)}, {"id", Value(op.key.id)}});
    case Op::Kind::publish:
      return Value::record({{"op", "publish"}, {"publication", op.publication}});
  }
  return Value();
}

TEST(BrokerActorOverlay, AWorkflowOfBrokersDeliversExactlyWhatOneBrokerWould) {
  std::mt19937 rng(2026);
  std::size_t deliveries = 0;
  for (int round = 0; round < 30; ++round) {
    int brokers = 1 + static_cast<int>(rng() % 8);
    testing::Scenario s = testing::random_scenario(rng, brokers, 8, 25);
    std::size_t expected_rejected = 0;
    testing::Received expected = testing::oracle(s, &expected_rejected);

    Workflow wf("overlay");
    std::vector<std::vector<std::string>> neighbours(brokers);
    auto name = [](int b) { return "b" + std::to_string(b); };
    for (auto [a, b] : s.edges) {
      neighbours[a].push_back(name(b));
      neighbours[b].push_back(name(a));
    }
    std::vector<std::vector<std::vector<Value>>> scripts(
        brokers, std::vector<std::vector<Value>>(s.phases.size()));
    for (std::size_t phase = 0; phase < s.phases.size(); ++phase)
      for (const Op& op : s.phases[phase])
        scripts[op.broker][phase].push_back(op_record(op));
    std::vector<Collect*> sinks;
    for (int b = 0; b < brokers; ++b) {
      wf.add(name(b), make_broker(neighbours[b]));
      wf.add("ops" + std::to_string(b), std::make_unique<PhasedScript>(scripts[b]));
      wf.connect("ops" + std::to_string(b), "out", name(b), "ops");
      auto sink = std::make_unique<Collect>();
      sinks.push_back(sink.get());
      wf.add("got" + std::to_string(b), std::move(sink));
      wf.connect(name(b), "deliveries", "got" + std::to_string(b), "in");
    }
    for (int b = 0; b < brokers; ++b)
      for (const std::string& n : neighbours[b])
        wf.connect(name(b), "to_" + n, n, "peers");
    // One run per phase, so that each phase settles before the next.
    std::uint64_t errors = 0;
    for (std::size_t phase = 0; phase < s.phases.size(); ++phase) {
      RealClock clock;
      ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>(), 2);
      RunSummary summary = run_workflow(wf, director, clock);
      for (int b = 0; b < brokers; ++b)
        errors += testing::errors(summary, name(b));
    }
    testing::Received got;
    for (Collect* sink : sinks)
      for (const Value& d : sink->tokens())
        testing::record(got, std::string(d.field("subscriber")->as_string()),
                        *d.field("publication"));
    ASSERT_EQ(got, expected) << "round " << round << ": " << s.describe();
    EXPECT_EQ(errors, expected_rejected) << "round " << round;
    for (const auto& [key, list] : got)
      deliveries += list.size();
  }
  EXPECT_GT(deliveries, 100u);
}

}  // namespace
}  // namespace cwf::pubsub
