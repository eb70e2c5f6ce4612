// ECA rules: firing after the detection cycle, conditions returning sets, raised events and the
// task-assignment strategies.
#include "actors/eca/rule_engine.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "eca_test_util.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::eca {
namespace {

using testing::occ;

struct RuleRun {
  explicit RuleRun(const std::string& rules_yaml)
      : engine(parse_rule_set(rules_yaml, "rules.yaml")) {
    engine.keep_fired(true);
  }
  void feed(const Value& o) {
    engine.process(o, {[&](const Value& h) { history.push_back(std::string(occurrence_type(h))); },
                       [&](const Value& n) { notified.push_back(n); }});
  }
  std::vector<std::string> assigned() const {
    std::vector<std::string> out;
    for (const Value& n : notified)
      out.push_back(std::string(field(n, kAssigned).as_string()));
    return out;
  }
  RuleEngine engine;
  std::vector<std::string> history;
  std::vector<Value> notified;
};

Value request(const std::string& service, const std::string& id, Value params = {}) {
  OccurrenceSpec spec;
  spec.type = "REQ(" + service + ")";
  spec.site = "client";
  spec.request = Value(id);
  spec.instance = Value("w1");
  spec.params = std::move(params);
  return make_occurrence(std::move(spec));
}

Value reply(const std::string& service, const std::string& id) {
  OccurrenceSpec spec;
  spec.type = "RPL(" + service + ".Done)";
  spec.site = "client";
  spec.request = Value(id);
  spec.instance = Value("w1");
  return make_occurrence(std::move(spec));
}

TEST(RuleEngine, RulesFireAfterTheDetectionCycle) {
  RuleRun run(R"y(
rules:
  - {name: inner, on: "CON(RPL(SW1.Done), RPL(SW2.Done))", raise: REQ(X)}
  - {name: outer, on: "CON(RPL(Cov.OK), CON(RPL(SW1.Done), RPL(SW2.Done)))", raise: REQ(Y)}
  - {name: follow, on: REQ(X), raise: REQ(Z)}
)y");
  run.feed(occ("RPL(Cov.OK)", "w1", 1));
  run.feed(occ("RPL(SW1.Done)", "w1", 2));
  run.feed(occ("RPL(SW2.Done)", "w1", 3));
  // Both composites are detected before either rule fires; REQ(X) is detected in a later cycle.
  EXPECT_EQ(
      run.history,
      (std::vector<std::string>{
          "RPL(Cov.OK)", "RPL(SW1.Done)", "RPL(SW2.Done)", "CON(RPL(SW1.Done), RPL(SW2.Done))",
          "CON(RPL(Cov.OK), CON(RPL(SW1.Done), RPL(SW2.Done)))", "REQ(X)", "REQ(Y)", "REQ(Z)"}));
  ASSERT_EQ(run.engine.fired().size(), 3u);
  EXPECT_EQ(run.engine.fired()[0].rule, "inner");
  EXPECT_EQ(run.engine.fired()[1].rule, "outer");
  EXPECT_EQ(run.engine.fired()[2].rule, "follow");
}

TEST(RuleEngine, OccurrenceIdsAreUniquePerSite) {
  RuleRun run(R"y(
site: s9
rules:
  - {on: "CON(REQ(a), REQ(b))", raise: [REQ(c), REQ(d)]}
)y");
  std::set<std::int64_t> ids;
  std::size_t at_s9 = 0;
  for (int i = 0; i < 20; ++i) {
    std::string instance = "w" + std::to_string(i % 3);
    run.engine.process(occ(i % 2 ? "REQ(a)" : "REQ(b)", instance, i), {[&](const Value& h) {
                         if (field(h, kSite) != Value("s9")) return;
                         ++at_s9;
                         ids.insert(field(h, kId).as_int());
                       }});
  }
  EXPECT_EQ(at_s9, 27u);  // 9 composites (3 per instance, logged: a rule is attached), 18 raised
  EXPECT_EQ(ids.size(), at_s9);
}

TEST(RuleEngine, RaisedEventsCarryInstanceTimeAndComputedParams) {
  RuleRun run(R"y(
rules:
  - on: "CON(RPL(A.Done), RPL(B.Done))"
    raise: {type: REQ(LogClaim), params: "{a: event/components[0]/params/v, b: event/components[1]/params/v}"}
)y");
  Value captured;
  run.engine.process(occ("RPL(A.Done)", "w7", 1, Value::record({{"v", 10}})), {});
  run.engine.process(occ("RPL(B.Done)", "w7", 2, Value::record({{"v", 20}})),
                     {[&](const Value& h) {
                        if (occurrence_type(h) == "REQ(LogClaim)") captured = h;
                      },
                      {}});
  ASSERT_TRUE(is_occurrence(captured));
  EXPECT_EQ(field(captured, kInstance), Value("w7"));
  EXPECT_EQ(occurrence_time(captured), 2'000'000'000);
  EXPECT_EQ(field(captured, kService), Value("LogClaim"));
  EXPECT_EQ(field(captured, kParams).to_json(), R"({"a":10,"b":20})");
  EXPECT_TRUE(field(captured, kRequest).is_string());
}

TEST(RuleEngine, AConditionHoldsForANonEmptySetAndPassesItOn) {
  RuleRun run(R"y(
rules:
  - on: REQ(Pick)
    if: /params/candidates
    raise: {type: REQ(Use), params: "{chosen: set[0], count: len(set)}"}
)y");
  Value last;
  RuleEngine::Sinks sinks{[&](const Value& h) { last = h; }, {}};
  run.engine.process(occ("REQ(Pick)", "w1", 1, Value::record({{"candidates", Value::array({})}})),
                     sinks);
  EXPECT_EQ(occurrence_type(last), "REQ(Pick)");  // empty set: the rule did not fire
  run.engine.process(
      occ("REQ(Pick)", "w1", 2, Value::record({{"candidates", Value::array({"b2", "b3"})}})),
      sinks);
  EXPECT_EQ(occurrence_type(last), "REQ(Use)");
  EXPECT_EQ(field(last, kParams).to_json(), R"({"chosen":"b2","count":2})");
}

TEST(RuleEngine, AFailingConditionSkipsItsRuleOnly) {
  RuleRun run(R"y(
rules:
  - {name: bad, on: REQ(a), if: "/params/n * 2 > 1", raise: REQ(b)}
  - {name: good, on: REQ(a), raise: REQ(c)}
)y");
  std::vector<std::string> errors;
  run.engine.process(occ("REQ(a)", "w1", 1, Value::record({{"n", "text"}})),
                     {[&](const Value& h) { run.history.emplace_back(occurrence_type(h)); },
                      {},
                      [&](const std::string& e) { errors.push_back(e); }});
  EXPECT_EQ(run.history, (std::vector<std::string>{"REQ(a)", "REQ(c)"}));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].substr(0, 14), "rule 'bad': co");
}

TEST(RuleEngine, ACycleOfRulesStopsAtTheCapAndIsReported) {
  RuleRun run(R"y(
rules:
  - {name: a-to-b, on: REQ(a), raise: REQ(b)}
  - {name: b-to-a, on: REQ(b), raise: REQ(a)}
)y");
  std::vector<std::string> errors;
  std::size_t history = 0;
  RuleEngine::Sinks sinks{
      [&](const Value&) { ++history; }, {}, [&](const std::string& e) { errors.push_back(e); }};
  run.engine.process(occ("REQ(a)", "w1", 1), sinks);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "rules raised more than 10000 events for one REQ(a) (a cycle of rules?); dropped 1 "
            "raised events; last rules: 'b-to-a' -> 'a-to-b' -> 'b-to-a' -> 'a-to-b' -> 'b-to-a' "
            "-> 'a-to-b'");
  EXPECT_EQ(history, 1u + RuleEngine::kMaxRaisedPerInput + 1u);
  // The next input starts a new count.
  run.engine.process(occ("REQ(b)", "w1", 2), sinks);
  EXPECT_EQ(errors.size(), 2u);
}

const char* kBrokers = R"y(
brokers:
  - {name: A, services: [S], region: north}
  - {name: B, services: [S], region: south}
  - {name: C, services: [S, T], region: north}
  - {name: D, services: [T], region: south}
)y";

TEST(RuleEngine, LoadBasedAssignmentPicksTheFewestPendingRequests) {
  RuleRun run(std::string(kBrokers) + "rules:\n  - {on: REQ(S), assign: load}\n");
  run.feed(request("S", "r1"));
  run.feed(request("S", "r2"));
  run.feed(request("S", "r3"));
  run.feed(request("S", "r4"));  // all have one pending: the first listed
  EXPECT_EQ(run.assigned(), (std::vector<std::string>{"A", "B", "C", "A"}));
  EXPECT_EQ(run.engine.pending("A"), 2);
  run.feed(reply("S", "r2"));  // B is done with r2
  run.feed(request("S", "r5"));
  EXPECT_EQ(run.assigned().back(), "B");
  EXPECT_EQ(run.engine.pending("B"), 1);
  EXPECT_EQ(run.engine.pending("D"), 0);  // never eligible for S
}

// Checkpoints: an engine saved after any prefix of a stream of requests and replies and
// restored into a fresh one (same rules) assigns, raises and notifies on the rest exactly as the
// uninterrupted one: the pending requests per broker, which broker each request went to, the
// random strategy's generator and the detector's held occurrences all survive.
TEST(RuleEngine, ARestoredEngineGoesOnAsTheUninterruptedOneAtEveryCut) {
  const std::string rules = std::string(kBrokers) + R"y(rules:
  - {on: REQ(S), assign: load}
  - {on: REQ(T), assign: random, seed: 7}
  - {name: both, on: "CON(RPL(S.Done), RPL(T.Done))", raise: REQ(U)}
)y";
  std::mt19937 rng(11);
  std::vector<Value> stream;
  std::vector<std::pair<std::string, std::string>> open;
  for (int i = 0; i < 60; ++i) {
    if (!open.empty() && rng() % 3 == 0) {
      std::size_t k = rng() % open.size();
      stream.push_back(reply(open[k].first, open[k].second));
      open.erase(open.begin() + static_cast<long>(k));
    } else {
      std::string service = rng() % 2 ? "S" : "T";
      std::string id = "r" + std::to_string(i);
      stream.push_back(request(service, id));
      open.emplace_back(service, id);
    }
  }
  auto describe_all = [](const RuleRun& run) {
    std::vector<std::string> out = run.history;
    for (const Value& n : run.notified) {
      const Value& assigned = field(n, kAssigned);
      out.push_back(std::string(occurrence_type(n)) + " -> " +
                    (assigned.is_string() ? std::string(assigned.as_string()) : ""));
    }
    return out;
  };
  RuleRun whole(rules);
  for (const Value& o : stream)
    whole.feed(o);
  ASSERT_GT(whole.notified.size(), 30u);
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    RuleRun before(rules), after(rules);
    for (std::size_t i = 0; i < cut; ++i)
      before.feed(stream[i]);
    SnapshotWriter out;
    before.engine.save(out);
    std::vector<std::uint8_t> bytes = out.take_bytes();
    SnapshotReader in(bytes);
    after.engine.restore(in);
    EXPECT_EQ(in.remaining(), 0u);
    after.history = before.history;
    after.notified = before.notified;
    for (std::size_t i = cut; i < stream.size(); ++i)
      after.feed(stream[i]);
    ASSERT_EQ(describe_all(after), describe_all(whole)) << "cut " << cut;
  }
}

TEST(RuleEngine, ResponsibilityBasedAssignmentFiltersByTheRequest) {
  RuleRun run(std::string(kBrokers) + R"y(rules:
  - {on: REQ(T), assign: responsibility, where: "broker/region == event/params/region"}
)y");
  run.feed(request("T", "r1", Value::record({{"region", "south"}})));
  run.feed(request("T", "r2", Value::record({{"region", "north"}})));
  run.feed(request("T", "r3", Value::record({{"region", "east"}})));  // nobody: no notification
  EXPECT_EQ(run.assigned(), (std::vector<std::string>{"D", "C"}));
}

TEST(RuleEngine, RandomAssignmentIsSeededAndStaysAmongTheEligible) {
  auto assignments = [](int seed) {
    RuleRun run(std::string(kBrokers) +
                "rules:\n  - {on: REQ(S), assign: random, seed: " + std::to_string(seed) + "}\n");
    for (int i = 0; i < 300; ++i)
      run.feed(request("S", "r" + std::to_string(i)));
    return run.assigned();
  };
  auto first = assignments(42);
  EXPECT_EQ(first, assignments(42));
  EXPECT_NE(first, assignments(43));
  ASSERT_EQ(first.size(), 300u);
  std::map<std::string, int> counts;
  for (const auto& b : first)
    ++counts[b];
  EXPECT_EQ(counts.size(), 3u);  // A, B and C, never D
  for (const auto& [broker, n] : counts) {
    EXPECT_NE(broker, "D");
    EXPECT_GT(n, 60) << broker;  // roughly uniform: 100 expected each
  }
}

TEST(RuleEngine, CombinedStrategyFiltersThenBalancesLoad) {
  RuleRun run(std::string(kBrokers) + R"y(rules:
  - {on: REQ(S), assign: load, where: "broker/region == 'north'"}
)y");
  for (int i = 0; i < 4; ++i)
    run.feed(request("S", "r" + std::to_string(i)));
  EXPECT_EQ(run.assigned(), (std::vector<std::string>{"A", "C", "A", "C"}));
}

std::string load_error(const std::string& yaml) {
  try {
    parse_rule_set(yaml, "rules.yaml");
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

TEST(RuleEngine, AssignmentChoosesAmongTheBrokersTheConditionReturns) {
  RuleRun run(std::string(kBrokers) +
              "rules:\n  - {on: REQ(S), if: '[\"B\", \"C\"]', assign: load}\n");
  run.feed(request("S", "r1"));
  run.feed(request("S", "r2"));
  run.feed(request("S", "r3"));
  EXPECT_EQ(run.assigned(), (std::vector<std::string>{"B", "C", "B"}));
  // A set that is not brokers only says the condition holds: all eligible brokers.
  RuleRun any(std::string(kBrokers) + "rules:\n  - {on: REQ(S), if: '[1]', assign: load}\n");
  any.feed(request("S", "r1"));
  EXPECT_EQ(any.assigned(), (std::vector<std::string>{"A"}));
}

TEST(RuleEngine, NotifyWithoutABrokerInTheSetIsReported) {
  RuleRun run("rules:\n  - {on: REQ(S), if: '/params/n', notify: true}\n");
  std::vector<std::string> errors;
  run.engine.process(request("S", "r1", Value::record({{"n", 3}})),
                     {{}, {}, [&](const std::string& e) { errors.push_back(e); }});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "rule 'rule 1': 'notify' needs a broker (a name or a record with a name) first in the "
            "condition's set, got 3");
}

TEST(RuleSet, ReportsMistakesAtTheirLine) {
  EXPECT_EQ(load_error("rules:\n  - {on: \"CON(REQ(a) REQ(b))\", raise: REQ(c)}\n"),
            "rules.yaml:2:10: invalid event 'CON(REQ(a) REQ(b))': column 12: expected ',' but "
            "found 'R'");
  EXPECT_EQ(load_error("rules:\n  - on: REQ(a)\n    rase: REQ(b)\n"),
            "rules.yaml:3:5: unknown key 'rase' in rule 'rule 1'; did you mean 'raise'?");
  EXPECT_EQ(load_error("rules:\n  - on: REQ(a)\n    assign: fastest\n"),
            "rules.yaml:3:13: unknown assignment strategy 'fastest' (expected random, load or "
            "responsibility)");
  EXPECT_EQ(load_error("rules:\n  - on: REQ(a)\n    if: \"/x ==\"\n    raise: REQ(b)\n"),
            "rules.yaml:3:9: invalid 'if' expression: column 6: expected an expression but found "
            "end of expression");
  EXPECT_EQ(load_error("rules:\n  - on: REQ(a)\n    raise: CON(REQ(a), REQ(b))\n"),
            "rules.yaml:3:12: expected a primitive event type to raise (REQ(Service), "
            "RPL(Service.Outcome), EXC(Service.Exception) or TIME(name)), got 'CON(REQ(a), "
            "REQ(b))'");
  EXPECT_EQ(load_error("rules:\n  - on: REQ(a)\n"),
            "rules.yaml:2:5: rule 'rule 1' does nothing: give 'raise', 'assign' or 'notify'");
  EXPECT_EQ(load_error("site: s1\n"), "rules.yaml:1:1: the rules file has no 'rules'");
  EXPECT_EQ(load_error("rules:\n  - {name: tell, on: REQ(a), notify: true}\n"),
            "rules.yaml:2:5: rule 'tell': 'notify' needs 'assign' or an 'if' returning the broker "
            "to notify");
  EXPECT_EQ(load_error("rules:\n  - name: loop\n    on: REQ(a)\n    raise: [REQ(b), REQ(a)]\n"),
            "rules.yaml:4:21: rule 'loop' raises its own event REQ(a) unconditionally: it would "
            "fire forever");
}

}  // namespace
}  // namespace cwf::eca
