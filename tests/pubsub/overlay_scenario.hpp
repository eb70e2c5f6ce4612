// Random overlay scenarios for the property tests: a tree of brokers, and phases of operations
// at random brokers (advertisements and subscriptions; publications; unsubscriptions and new
// subscriptions; publications again...). The routing state settles between phases, so what each
// subscriber must receive is defined: the oracle is one broker holding every subscription.
#pragma once

#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "actors/pubsub/broker.hpp"

namespace cwf::pubsub::testing {

struct Op {
  enum class Kind { subscribe, unsubscribe, advertise, unadvertise, publish };
  Kind kind;
  int broker;
  ClientKey key;
  Filter filter;
  Value publication;  // carries `n_` (its number) and `at_` (the broker it is published at)
};

struct Scenario {
  int brokers = 1;
  std::vector<std::pair<int, int>> edges;  // a tree
  std::vector<std::vector<Op>> phases;
  std::string describe() const {
    std::string s = std::to_string(brokers) + " brokers, edges";
    for (auto [a, b] : edges)
      s += " " + std::to_string(a) + "-" + std::to_string(b);
    return s;
  }
};

// Per subscriber and broker of publication, the numbers of the publications received in order.
using Received = std::map<std::pair<std::string, std::int64_t>, std::vector<std::int64_t>>;

inline void record(Received& received, const std::string& subscriber, const Value& publication) {
  received[{subscriber, publication.field("at_")->as_int()}].push_back(
      publication.field("n_")->as_int());
}

// Filters over a small value space, so that covering and overlap are frequent.
inline Filter random_subscription(std::mt19937& rng) {
  std::vector<Value> predicates;
  int count = std::uniform_int_distribution<int>(0, 2)(rng);
  for (int i = 0; i < count; ++i) {
    switch (rng() % 6) {
      case 0:
        predicates.push_back(Value::array({Value("x"), Value("="), Value(int(rng() % 4))}));
        break;
      case 1:
        predicates.push_back(Value::array({Value("x"), Value("<"), Value(int(rng() % 5))}));
        break;
      case 2:
        predicates.push_back(Value::array({Value("x"), Value(">="), Value(int(rng() % 4))}));
        break;
      case 3:
        predicates.push_back(Value::array(
            {Value("y"), Value("prefix"), Value(rng() % 2 ? "A" : (rng() % 2 ? "AB" : "B"))}));
        break;
      case 4:
        predicates.push_back(
            Value::array({Value("x"), Value("between"), Value(int(rng() % 2)), Value(2)}));
        break;
      default:
        predicates.push_back(Value::array({Value("y"), Value("exists")}));
        break;
    }
  }
  return Filter::parse(Value::array(std::move(predicates)));
}

inline Filter random_advertisement(std::mt19937& rng) {
  switch (rng() % 4) {
    case 0:
      return Filter();
    case 1:
      return Filter::parse(
          Value::array({Value::array({Value("x"), Value("<"), Value(int(1 + rng() % 3))})}));
    case 2:
      return Filter::parse(
          Value::array({Value::array({Value("x"), Value(">="), Value(int(rng() % 3))})}));
    default:
      return Filter::parse(Value::array({Value::array({Value("y"), Value("prefix"), Value("A")})}));
  }
}

inline Value random_publication(std::mt19937& rng, int broker, std::int64_t number) {
  static const char* kStrings[] = {"A", "AB", "ABC", "B", "BA"};
  std::vector<std::string> names{"n_", "at_"};
  std::vector<Value> values{Value(number), Value(broker)};
  if (rng() % 5 != 0) {
    names.push_back("x");
    values.push_back(rng() % 4 ? Value(int(rng() % 5)) : Value((rng() % 10) * 0.5));
  }
  if (rng() % 3 != 0) {
    names.push_back("y");
    values.push_back(Value(kStrings[rng() % 5]));
  }
  return Value::record(Schema::intern(names), std::move(values));
}

// `brokers` brokers (a random tree), then: advertisements and subscriptions; publications;
// unsubscriptions, new subscriptions and advertisement changes; publications.
inline Scenario random_scenario(std::mt19937& rng, int brokers, int subscriptions,
                                int publications) {
  Scenario s;
  s.brokers = brokers;
  for (int b = 1; b < brokers; ++b)
    s.edges.push_back({static_cast<int>(rng() % b), b});
  auto any_broker = [&] { return static_cast<int>(rng() % brokers); };
  std::vector<Op> setup, churn;
  std::vector<Op> live_subscriptions, live_advertisements;
  int advertisements = 1 + static_cast<int>(rng() % (2 * brokers));
  for (int i = 0; i < advertisements; ++i) {
    int b = any_broker();
    Op op{Op::Kind::advertise,
          b,
          {"p" + std::to_string(b), std::to_string(i)},
          random_advertisement(rng),
          Value()};
    setup.push_back(op);
    live_advertisements.push_back(op);
  }
  auto subscribe = [&](std::vector<Op>& phase, int i) {
    int b = any_broker();
    // A few subscribers per broker, some with several subscriptions.
    Op op{Op::Kind::subscribe,
          b,
          {"c" + std::to_string(b) + "_" + std::to_string(rng() % 3), std::to_string(i)},
          random_subscription(rng),
          Value()};
    phase.push_back(op);
    live_subscriptions.push_back(op);
  };
  for (int i = 0; i < subscriptions; ++i)
    subscribe(setup, i);
  std::shuffle(setup.begin(), setup.end(), rng);
  std::int64_t number = 0;
  auto publish_phase = [&] {
    std::vector<Op> phase;
    for (int i = 0; i < publications; ++i) {
      int b = any_broker();
      phase.push_back({Op::Kind::publish, b, {}, Filter(), random_publication(rng, b, number++)});
    }
    return phase;
  };
  s.phases.push_back(setup);
  s.phases.push_back(publish_phase());
  for (int i = 0; i < subscriptions / 2 && !live_subscriptions.empty(); ++i) {
    std::size_t k = rng() % live_subscriptions.size();
    Op gone = live_subscriptions[k];
    churn.push_back({Op::Kind::unsubscribe, gone.broker, gone.key, Filter(), Value()});
    live_subscriptions.erase(live_subscriptions.begin() + static_cast<long>(k));
  }
  for (int i = 0; i < subscriptions / 2; ++i)
    subscribe(churn, subscriptions + i);
  if (live_advertisements.size() > 1 && rng() % 2) {
    Op gone = live_advertisements.back();
    churn.push_back({Op::Kind::unadvertise, gone.broker, gone.key, Filter(), Value()});
  }
  int b = any_broker();
  churn.push_back({Op::Kind::advertise,
                   b,
                   {"p" + std::to_string(b), "late"},
                   random_advertisement(rng),
                   Value()});
  s.phases.push_back(churn);
  s.phases.push_back(publish_phase());
  return s;
}

// What one broker holding every subscription delivers; publications that no advertisement made
// at their own broker promised are left out (the overlay rejects them).
inline Received oracle(const Scenario& s, std::size_t* rejected = nullptr) {
  Broker everything;
  BrokerOutput out;
  everything.advertise({"oracle", ""}, Filter(), out);
  std::map<ClientKey, std::pair<int, Filter>> advertisements;
  Received received;
  for (const auto& phase : s.phases)
    for (const Op& op : phase) {
      switch (op.kind) {
        case Op::Kind::subscribe:
          everything.subscribe(op.key, op.filter, out);
          break;
        case Op::Kind::unsubscribe:
          everything.unsubscribe(op.key, out);
          break;
        case Op::Kind::advertise:
          advertisements[op.key] = {op.broker, op.filter};
          break;
        case Op::Kind::unadvertise:
          advertisements.erase(op.key);
          break;
        case Op::Kind::publish: {
          bool promised = false;
          for (const auto& [key, ad] : advertisements)
            promised |= ad.first == op.broker && ad.second.matches(op.publication);
          if (!promised) {
            if (rejected) ++*rejected;
            break;
          }
          for (const std::string& subscriber : everything.local_matches(op.publication))
            record(received, subscriber, op.publication);
          break;
        }
      }
    }
  return received;
}

}  // namespace cwf::pubsub::testing
