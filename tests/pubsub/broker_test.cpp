// The broker core alone: subscriptions, advertisements, publications and what each produces.
#include <gtest/gtest.h>

#include "actors/pubsub/broker.hpp"

namespace cwf::pubsub {
namespace {

Filter parse(std::initializer_list<Value> predicates) {
  return Filter::parse(Value::array(predicates));
}
Value pred(std::string_view a, std::string_view op, Value v) {
  return Value::array({Value(a), Value(op), std::move(v)});
}

std::vector<std::string> delivered(const BrokerOutput& out) {
  std::vector<std::string> lines;
  for (const Delivery& d : out.deliveries)
    lines.push_back(d.subscriber + " " + d.publication.to_json());
  return lines;
}

TEST(Broker, DeliversMatchingPublicationsOncePerSubscriberInPublicationOrder) {
  Broker broker;
  BrokerOutput out;
  ASSERT_TRUE(broker.advertise({"feed", ""}, parse({pred("symbol", "prefix", "")}), out));
  ASSERT_TRUE(broker.subscribe({"alice", "cheap"}, parse({pred("price", "<", 10)}), out));
  ASSERT_TRUE(broker.subscribe({"alice", "ab"}, parse({pred("symbol", "prefix", "AB")}), out));
  ASSERT_TRUE(broker.subscribe({"bob", ""},
                               parse({pred("symbol", "=", "ABC"), pred("price", ">=", 5)}), out));
  EXPECT_TRUE(out.forwards.empty());  // no neighbours
  for (Value p : {Value::record({{"symbol", "ABC"}, {"price", 7}}),
                  Value::record({{"symbol", "XYZ"}, {"price", 3.5}}),
                  Value::record({{"symbol", "ABD"}, {"price", 30}}),
                  Value::record({{"symbol", "XYZ"}, {"price", 30}})})
    ASSERT_TRUE(broker.publish(p, out));
  EXPECT_EQ(delivered(out), (std::vector<std::string>{
                                R"(alice {"symbol":"ABC","price":7})",
                                R"(bob {"symbol":"ABC","price":7})",
                                R"(alice {"symbol":"XYZ","price":3.5})",
                                R"(alice {"symbol":"ABD","price":30})",
                            }));
  EXPECT_EQ(broker.local_matches(Value::record({{"symbol", "ABC"}, {"price", 9}})),
            (std::vector<std::string>{"alice", "bob"}));
}

TEST(Broker, RejectsPublicationsNoLocalAdvertisementPromised) {
  Broker broker;
  BrokerOutput out;
  broker.subscribe({"alice", ""}, Filter(), out);
  EXPECT_FALSE(broker.publish(Value::record({{"price", 1}}), out));
  broker.advertise({"feed", "small"}, parse({pred("price", "<", 5)}), out);
  EXPECT_FALSE(broker.publish(Value::record({{"price", 7}}), out));
  EXPECT_TRUE(broker.publish(Value::record({{"price", 1}}), out));
  EXPECT_EQ(delivered(out), (std::vector<std::string>{R"(alice {"price":1})"}));
  ASSERT_TRUE(broker.unadvertise({"feed", "small"}, out));
  EXPECT_FALSE(broker.unadvertise({"feed", "small"}, out));
  EXPECT_FALSE(broker.publish(Value::record({{"price", 1}}), out));
}

TEST(Broker, UnsubscribeAndResubscribeReplace) {
  Broker broker;
  BrokerOutput out;
  broker.advertise({"p", ""}, Filter(), out);
  broker.subscribe({"alice", "s"}, parse({pred("x", "=", 1)}), out);
  broker.subscribe({"alice", "s"}, parse({pred("x", "=", 2)}), out);  // replaces
  EXPECT_EQ(broker.subscriptions(), 1u);
  broker.publish(Value::record({{"x", 1}}), out);
  broker.publish(Value::record({{"x", 2}}), out);
  EXPECT_EQ(delivered(out), (std::vector<std::string>{R"(alice {"x":2})"}));
  EXPECT_TRUE(broker.unsubscribe({"alice", "s"}, out));
  EXPECT_FALSE(broker.unsubscribe({"alice", "s"}, out));
  out.clear();
  broker.publish(Value::record({{"x", 2}}), out);
  EXPECT_TRUE(out.deliveries.empty());
}

// Two brokers: a subscription travels toward the advertisement only, covered subscriptions stay
// home, and unsubscribing the covering one sends the covered one before withdrawing.
TEST(Broker, CoveringPrunesWhatIsForwardedAndUnsubscribeRestoresIt) {
  Broker home(1);
  BrokerOutput out;
  home.subscribe({"s", "wide"}, parse({pred("x", "<", 10)}), out);
  EXPECT_TRUE(out.forwards.empty());  // no advertisement behind the neighbour yet
  BrokerMessage ad{BrokerMessage::Kind::advertise, {"p", ""}, parse({pred("x", ">=", 0)}), Value()};
  ASSERT_TRUE(home.receive(0, ad, out));
  ASSERT_EQ(out.forwards.size(), 1u);  // attracted
  EXPECT_EQ(out.forwards[0].message.key.id, "wide");
  out.clear();
  home.subscribe({"s", "narrow"}, parse({pred("x", "<", 5)}), out);
  EXPECT_TRUE(out.forwards.empty());  // covered by "wide" there
  home.subscribe({"s", "away"}, parse({pred("x", "<", 0)}), out);
  EXPECT_TRUE(out.forwards.empty());  // overlaps no advertisement
  EXPECT_EQ(home.forwarded_to(0), 1u);
  home.unsubscribe({"s", "wide"}, out);
  ASSERT_EQ(out.forwards.size(), 2u);
  EXPECT_EQ(out.forwards[0].message.kind, BrokerMessage::Kind::subscribe);
  EXPECT_EQ(out.forwards[0].message.key.id, "narrow");
  EXPECT_EQ(out.forwards[1].message.kind, BrokerMessage::Kind::unsubscribe);
  EXPECT_EQ(out.forwards[1].message.key.id, "wide");
  out.clear();
  // Publications from the neighbour reach local subscribers; none goes back.
  BrokerMessage pub{BrokerMessage::Kind::publish, {}, Filter(), Value::record({{"x", 3}})};
  ASSERT_TRUE(home.receive(0, pub, out));
  EXPECT_EQ(delivered(out), (std::vector<std::string>{R"(s {"x":3})"}));
  EXPECT_TRUE(out.forwards.empty());
  // Unadvertising withdraws what is no longer attracted.
  out.clear();
  ASSERT_TRUE(
      home.receive(0, {BrokerMessage::Kind::unadvertise, {"p", ""}, Filter(), Value()}, out));
  ASSERT_EQ(out.forwards.size(), 1u);
  EXPECT_EQ(out.forwards[0].message.kind, BrokerMessage::Kind::unsubscribe);
  EXPECT_EQ(home.forwarded_to(0), 0u);
  // A subscriber of another broker cannot be taken over locally.
  ASSERT_TRUE(
      home.receive(0, {BrokerMessage::Kind::subscribe, {"far", ""}, Filter(), Value()}, out));
  EXPECT_FALSE(home.subscribe({"far", ""}, Filter(), out));
  EXPECT_FALSE(home.receive(3, pub, out));  // no such neighbour
}

}  // namespace
}  // namespace cwf::pubsub

namespace cwf::pubsub {
namespace {

// The C++ example of docs/pubsub.md.
TEST(Broker, TheDocumentedExample) {
  cwf::pubsub::Broker broker;  // no neighbours
  cwf::pubsub::BrokerOutput out;
  broker.advertise({"feed", ""}, cwf::pubsub::Filter(), out);  // may publish anything
  broker.subscribe({"alice", "cheap"},
                   cwf::pubsub::Filter::parse(cwf::Value::array({cwf::Value::array(
                       {cwf::Value("price"), cwf::Value("<"), cwf::Value(10)})})),
                   out);
  broker.publish(cwf::Value::record({{"price", 3}}), out);
  ASSERT_EQ(out.deliveries.size(), 1u);
  EXPECT_EQ(out.deliveries[0].subscriber, "alice");
  EXPECT_EQ(out.deliveries[0].publication.to_json(), R"({"price":3})");
}

}  // namespace
}  // namespace cwf::pubsub
