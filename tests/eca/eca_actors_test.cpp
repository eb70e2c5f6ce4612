// The eca_* actors in small workflows on a virtual clock.
#include <gtest/gtest.h>

#include "../actors/actor_test_util.hpp"
#include "../runtime/test_actors.hpp"
#include "actors/eca/history_query.hpp"
#include "actors/eca/register_actors.hpp"
#include "eca_test_util.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf::eca {
namespace {

using actors::testing::Collect;
using actors::testing::Harness;
using eca::testing::occ;

const ActorRegistry& eca_registry() {
  static const ActorRegistry* registry = [] {
    auto* r = new ActorRegistry();
    register_actors(*r);
    return r;
  }();
  return *registry;
}

std::unique_ptr<Actor> make(const std::string& type, std::map<std::string, Value> values) {
  return eca_registry().find(type)->factory(actors::testing::params(std::move(values)));
}

std::string param_error(const std::string& type, std::map<std::string, Value> values) {
  try {
    make(type, std::move(values));
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return "";
}

// Emits occurrences, each stamped with its own timestamp.
std::unique_ptr<Actor> occurrences(std::vector<Value> list) {
  std::vector<Timestamp> times;
  for (const Value& o : list)
    times.push_back(occurrence_time(o));
  return std::make_unique<cwf::testing::ListSource>(std::move(list), std::move(times));
}

std::vector<std::string> described(const Collect& c) {
  std::vector<std::string> out;
  for (const auto& s : c.seen)
    out.push_back(eca::testing::describe(s.token) + "@" + std::to_string(s.time / 1'000'000'000));
  return out;
}

constexpr Timestamp kStart = 1'000 * kSecond;

TEST(EcaTimeEvents, AbsoluteRelativeAndPeriodicOnTheWorkflowClock) {
  Harness h;
  h.add("clock", make("eca_time_events", {{"name", "tick"},
                                          {"at", Value::array({"1005", "1970-01-01T00:16:50Z"})},
                                          {"after", Value(15 * kSecond)},
                                          {"every", Value(10 * kSecond)},
                                          {"count", Value(3)}}));
  Collect& out = h.collect("clock");
  h.run(kStart);
  EXPECT_EQ(described(out),
            (std::vector<std::string>{"TIME(tick)@1005", "TIME(tick)@1010", "TIME(tick)@1010",
                                      "TIME(tick)@1015", "TIME(tick)@1020", "TIME(tick)@1030"}));
  for (const auto& s : out.seen)
    EXPECT_GE(s.fired, s.time);  // emitted when the clock got there, not before
  EXPECT_EQ(param_error("eca_time_events", {{"name", "x"}}), "name: give 'at', 'after' or 'every'");
}

TEST(EcaDetector, TimeEventsDriveAnAbsenceDeadlineInAWorkflow) {
  Harness h;
  h.add("events", occurrences({occ("REQ(x)", "i1", 1000), occ("REQ(x)", "i2", 1005),
                               occ("RPL(x.Done)", "i2", 1008)}));
  h.add("clock", make("eca_time_events",
                      {{"name", "tick"}, {"every", Value(10 * kSecond)}, {"count", Value(4)}}));
  h.add("detect",
        make("eca_detector", {{"events", Value::array({"REP(RPL(x.Done), REQ(x), 30 s)"})}}));
  h.connect("events", "detect");
  h.connect("clock", "detect");
  Collect& out = h.collect("detect");
  h.run(kStart);
  EXPECT_EQ(described(out),
            std::vector<std::string>{"REP(RPL(x.Done), REQ(x), 30 s)[REQ(x)@1000]@1030"});
}

TEST(EcaDetector, ReportsBadEventsAndNonOccurrences) {
  EXPECT_EQ(param_error("eca_detector", {{"events", Value::array({"SEQ(REQ(a))"})}}),
            "events: in event 'SEQ(REQ(a))': column 11: expected ',' but found ')'");
  Harness h;
  h.add("events", std::make_unique<cwf::testing::ListSource>(std::vector<Value>{Value(42)}));
  h.add("detect", make("eca_detector", {{"events", Value::array({"REQ(a)"})}}));
  h.connect("events", "detect");
  auto summary = h.run();
  EXPECT_EQ(Harness::errors(summary, "detect"), 1u);
}

TEST(EcaBroker, AnswersTheRequestsAssignedToItAfterItsDelay) {
  Harness h;
  Value assigned = with_field(occ("REQ(CntrlCoverage)", "c1", 100,
                                  Value::record({{"claim", Value::record({{"covered", false}})}})),
                              kAssigned, "InsuranceAgent");
  assigned = with_field(assigned, kRequest, "s1:7");
  Value other = with_field(occ("REQ(CntrlCoverage)", "c2", 100), kAssigned, "Somebody");
  Value failing = with_field(occ("REQ(Print)", "c3", 200, Value::record({{"pages", 0}})), kAssigned,
                             "InsuranceAgent");
  h.add("requests", occurrences({assigned, other, failing}));
  h.add("agent",
        make("eca_broker",
             {{"name", "InsuranceAgent"},
              {"site", "s2"},
              {"services",
               Value::record({{"CntrlCoverage",
                               Value::record({{"reply", "OK"},
                                              {"delay", "3 min"},
                                              {"params", "{covered: /params/claim/covered}"}})},
                              {"Print", Value::record({{"exception_if", "/params/pages == 0"},
                                                       {"exception", "Empty"}})}})}}));
  h.connect("requests", "agent");
  Collect& out = h.collect("agent");
  h.run();
  ASSERT_EQ(out.seen.size(), 2u);
  const Value& reply = out.seen[0].token;
  EXPECT_EQ(occurrence_type(reply), "RPL(CntrlCoverage.OK)");
  EXPECT_EQ(occurrence_time(reply), 280 * kSecond);
  EXPECT_EQ(out.seen[0].time, 280 * kSecond);
  EXPECT_EQ(field(reply, kRequest), Value("s1:7"));
  EXPECT_EQ(field(reply, kInstance), Value("c1"));
  EXPECT_EQ(field(reply, kSite), Value("s2"));
  EXPECT_EQ(field(reply, kBroker), Value("InsuranceAgent"));
  EXPECT_EQ(field(reply, kParams).to_json(), R"({"covered":false})");
  EXPECT_EQ(occurrence_type(out.seen[1].token), "EXC(Print.Empty)");
  EXPECT_EQ(param_error("eca_broker",
                        {{"name", "b"},
                         {"services", Value::record({{"S", Value::record({{"dealy", 1}})}})}}),
            "services: service 'S', 'dealy': unknown key (expected reply, delay, params, "
            "exception_if, exception)");
  auto delay_error = [](Value delay) {
    return param_error(
        "eca_broker",
        {{"name", "b"}, {"services", Value::record({{"S", Value::record({{"delay", delay}})}})}});
  };
  EXPECT_EQ(delay_error(Value(-1)),
            "services: service 'S', 'delay': expected a delay between 0 and 1e9 seconds, got -1");
  EXPECT_EQ(delay_error(Value(1e30)).substr(0, 67),
            "services: service 'S', 'delay': expected a delay between 0 and 1e9 ");
}

TEST(EcaRaise, TurnsTokensIntoOccurrences) {
  Harness h;
  h.add("claims", std::make_unique<cwf::testing::ListSource>(
                      std::vector<Value>{Value::record({{"claim", "HIC-9"}, {"amount", 50}})},
                      std::vector<Timestamp>{7 * kSecond}));
  h.add("initiate", make("eca_raise", {{"event", "REQ(HIC)"}, {"instance", "/claim"}}));
  h.connect("claims", "initiate");
  Collect& out = h.collect("initiate");
  h.run();
  ASSERT_EQ(out.seen.size(), 1u);
  const Value& o = out.seen[0].token;
  EXPECT_EQ(occurrence_type(o), "REQ(HIC)");
  EXPECT_EQ(field(o, kInstance), Value("HIC-9"));
  EXPECT_EQ(field(o, kService), Value("HIC"));
  EXPECT_EQ(occurrence_time(o), 7 * kSecond);
  EXPECT_EQ(field(o, kParams).to_json(), R"({"claim":"HIC-9","amount":50})");
  EXPECT_TRUE(field(o, kRequest).is_string());
  EXPECT_EQ(param_error("eca_raise", {{"event", "CON(REQ(a), REQ(b))"}}),
            "event: expected a primitive event type (REQ(Service), RPL(Service.Outcome), "
            "EXC(Service.Exception) or TIME(name)), got 'CON(REQ(a), REQ(b))'");
}

TEST(EcaRaise, WrapsParamsThatAreNotARecord) {
  Harness h;
  h.add("numbers",
        std::make_unique<cwf::testing::ListSource>(std::vector<Value>{Value(5), Value(6)}));
  h.add("initiate", make("eca_raise", {{"event", "REQ(Count)"}}));
  h.connect("numbers", "initiate");
  Collect& out = h.collect("initiate");
  h.run();
  ASSERT_EQ(out.seen.size(), 2u);
  EXPECT_EQ(field(out.seen[0].token, kParams).to_json(), R"({"value":5})");
  EXPECT_EQ(field(out.seen[1].token, kParams).to_json(), R"({"value":6})");
}

TEST(EcaHistory, RecordsEveryOccurrenceForTheQuery) {
  std::string path = actors::testing::temp_path("history.jsonl");
  Harness h;
  h.add("events",
        occurrences({occ("REQ(a)", "w1", 2), occ("REQ(a)", "w2", 1), occ("RPL(a.Done)", "w1", 3)}));
  h.add("history", make("eca_history", {{"path", path}}));
  h.connect("events", "history");
  h.run();
  auto w1 = query_history_file(path, {"w1", {}});
  ASSERT_EQ(w1.size(), 2u);
  EXPECT_EQ(occurrence_type(w1[0]), "REQ(a)");
  EXPECT_EQ(occurrence_type(w1[1]), "RPL(a.Done)");
  EXPECT_EQ(query_history_file(path, {}).size(), 3u);

  Harness again;  // a second run appends to the same history
  again.add("events", occurrences({occ("REQ(b)", "w1", 4)}));
  again.add("history", make("eca_history", {{"path", path}, {"append", true}}));
  again.connect("events", "history");
  again.run();
  auto all = query_history_file(path, {"w1", {}});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(occurrence_type(all[2]), "REQ(b)");
}

TEST(EcaRules, RulesWrittenInlineRaiseAndNotify) {
  Value rules = Value::record(
      {{"brokers", Value::array({Value::record(
                       {{"name", "DBCL"}, {"services", Value::array({"LogClaim"})}})})},
       {"rules", Value::array({Value::record({{"on", "CON(RPL(SW1.Done), RPL(SW2.Done))"},
                                              {"raise", "REQ(LogClaim)"}}),
                               Value::record({{"on", "REQ(LogClaim)"}, {"assign", "load"}})})}});
  Harness h;
  h.add("replies", occurrences({occ("RPL(SW2.Done)", "c1", 1), occ("RPL(SW1.Done)", "c1", 2)}));
  h.add("eve", make("eca_rules", {{"rules", rules}, {"name", "EVE"}}));
  h.connect("replies", "eve");
  Collect& notified = h.collect("eve", "notify");
  Collect& history = h.collect("eve", "history");
  h.run();
  ASSERT_EQ(notified.seen.size(), 1u);
  EXPECT_EQ(occurrence_type(notified.seen[0].token), "REQ(LogClaim)");
  EXPECT_EQ(field(notified.seen[0].token, kAssigned), Value("DBCL"));
  EXPECT_EQ(notified.seen[0].time, 2 * kSecond);
  EXPECT_EQ(described(history),
            (std::vector<std::string>{
                "RPL(SW2.Done)@1", "RPL(SW1.Done)@2",
                "CON(RPL(SW1.Done), RPL(SW2.Done))[RPL(SW1.Done)@2 RPL(SW2.Done)@1]@2",
                "REQ(LogClaim)@2"}));
  EXPECT_EQ(
      param_error(
          "eca_rules",
          {{"rules", Value::record({{"rules", Value::array({Value::record(
                                                  {{"on", "REQ(a)"}, {"rase", "REQ(b)"}})})}})},
           {"name", "EVE"}}),
      "rules: unknown key 'rase' in rule 'rule 1'; did you mean 'raise'?");
}

TEST(EcaRules, AMissingRulesFileIsALoadError) {
  try {
    make("eca_rules", {{"rules", "/nonexistent/rules.yaml"}});
    FAIL() << "no error";
  } catch (const LoadError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/rules.yaml: cannot open the rules file");
  }
}

}  // namespace
}  // namespace cwf::eca
