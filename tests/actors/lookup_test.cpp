// lookup (actors/lookup.hpp): each `in` event looked up, in event time, in a table that the
// `table` events keep; and the progress marks (docs/architecture.md, "Progress") that let it
// answer before the table's next change.
#include "actors/lookup.hpp"

#include <gtest/gtest.h>

#include "runtime/actor/actor_context.hpp"
#include "tests/actors/actor_test_util.hpp"

namespace cwf::actors {
namespace {

using testing::Arrivals;
using testing::Harness;
using Lines = std::vector<std::string>;

// Each token at its event time (seconds), arriving at the given clock second.
struct At {
  int arrival;
  int time;
  Value token;
};
std::unique_ptr<Actor> arrivals(std::vector<At> items) {
  std::vector<Arrivals::Item> out;
  for (auto& [arrival, time, token] : items)
    out.push_back({arrival * kSecond, time * kSecond, std::move(token)});
  return std::make_unique<Arrivals>(std::move(out));
}
Value kv(const char* k, const char* field, Value v) {
  return Value::record({{"k", Value(k)}, {field, std::move(v)}});
}

// `look` (a lookup) with `probes` on its `in` and `changes` on its `table`; returns its output.
testing::Collect& wire_lookup(Harness& h, std::unique_ptr<Actor> probes,
                              std::unique_ptr<Actor> changes, std::unique_ptr<Actor> look) {
  h.add("probes", std::move(probes));
  h.add("changes", std::move(changes));
  h.add("look", std::move(look));
  h.connect("probes", "out", "look", "in");
  h.connect("changes", "out", "look", "table");
  return h.collect("look");
}

class LookupUnder : public ::testing::TestWithParam<std::string> {};

// Every table change arrives after every order (their clock seconds 100 on), yet each order sees
// the table as of its own time, its own second's changes included; a key the table lacks is
// null. Orders of one time come in arrival order.
TEST_P(LookupUnder, EachEventSeesTheTableAsOfItsTimeWhateverTheArrivalOrder) {
  Harness h;
  auto& out = wire_lookup(h,
                          arrivals({{1, 1, kv("a", "q", Value(1))},
                                    {2, 3, kv("b", "q", Value(2))},
                                    {3, 3, kv("a", "q", Value(3))},
                                    {4, 4, kv("a", "q", Value(4))},
                                    {5, 5, kv("c", "q", Value(5))}}),
                          arrivals({{100, 1, kv("a", "p", Value(10))},
                                    {101, 2, kv("b", "p", Value(20))},
                                    {102, 4, kv("a", "p", Value(11))}}),
                          testing::make("lookup", {{"key", Value("/k")},
                                                   {"probe", Value("/k")},
                                                   {"emit", Value("{q: /q, p: found/p}")}}));
  h.run_under(GetParam());
  EXPECT_EQ(out.json(), (Lines{R"({"q":1,"p":10})", R"({"q":2,"p":20})", R"({"q":3,"p":10})",
                               R"({"q":4,"p":11})", R"({"q":5,"p":null})"}));
}

// A table fed by a filter that lets one event in 50 through: without progress the lookup would
// hold every event until the filter's next one (49 waiting); with the marks the filter sends for
// what it drops, an event waits only for the input to move past its time.
TEST_P(LookupUnder, ATableBehindAFilterAnswersAsSoonAsItsInputMovesOn) {
  std::vector<At> items;
  for (int i = 1; i <= 200; ++i)
    items.push_back({i, i, Value::record({{"v", Value(i)}})});
  Harness h;
  h.add("src", arrivals(items));
  h.add("every_50th", "filter", {{"where", Value("/v % 50 == 0")}});
  auto owned = testing::make(
      "lookup",
      {{"key", Value("0")}, {"probe", Value("0")}, {"emit", Value("{v: /v, last: found/v}")}});
  auto& look = static_cast<Lookup&>(*owned);
  h.add("look", std::move(owned));
  h.connect("src", "every_50th");
  h.connect("every_50th", "out", "look", "table");
  h.connect("src", "out", "look", "in");
  auto& out = h.collect("look");
  RunSummary summary = h.run_under(GetParam());
  Lines expected;
  for (int i = 1; i <= 200; ++i)
    expected.push_back("{\"v\":" + std::to_string(i) + ",\"last\":" +
                       (i < 50 ? std::string("null") : std::to_string(i / 50 * 50)) + "}");
  EXPECT_EQ(out.json(), expected);
  EXPECT_LE(look.most_waiting(), 3u);
  for (const auto& a : summary.actors)
    EXPECT_EQ(a.incomplete(), 0u) << a.name;
}

// The same through a window that closes by time: every 10 s the count of the period before. The
// window's port passes the input's progress on (its actor fired on every window up to it).
TEST_P(LookupUnder, ATableFilledByTimeWindowsAnswersAsSoonAsItsInputMovesOn) {
  std::vector<At> items;
  for (int i = 1; i <= 60; ++i)
    items.push_back({i, i, Value::record({{"v", Value(i)}})});
  Harness h;
  h.add("src", arrivals(items));
  h.add("per_10s", "aggregate", {{"function", Value("count")}, {"window_times", Value("s")}});
  WindowSpec ten_seconds;
  ten_seconds.size = WindowExtent{WindowUnit::time, 10 * kSecond};
  ten_seconds.step = WindowExtent{WindowUnit::time, 10 * kSecond};
  h.workflow().declare_window("per_10s", "in", ten_seconds);
  auto owned = testing::make(
      "lookup", {{"key", Value("0")},
                 {"probe", Value("0")},
                 {"emit", Value("{v: /v, count: found/count, end: found/window_end}")}});
  auto& look = static_cast<Lookup&>(*owned);
  h.add("look", std::move(owned));
  h.connect("src", "per_10s");
  h.connect("per_10s", "out", "look", "table");
  h.connect("src", "out", "look", "in");
  auto& out = h.collect("look");
  h.run_under(GetParam());
  Lines expected;
  for (int i = 1; i <= 60; ++i) {
    // The latest window ending at or before i: [0, 10) holds 1..9, the later ones ten each.
    std::string count = i < 10 ? "null" : i < 20 ? "9" : "10";
    std::string end = i < 10 ? "null" : std::to_string(i / 10 * 10);
    expected.push_back("{\"v\":" + std::to_string(i) + ",\"count\":" + count + ",\"end\":" + end +
                       "}");
  }
  EXPECT_EQ(out.json(), expected);
  EXPECT_LE(look.most_waiting(), 3u);
}

// The same behind a sub-workflow: a composite stamps what comes out of it with the outer event
// it fired on, so its progress is its input's, and it passes the marks on.
TEST_P(LookupUnder, ATableBehindASubWorkflowAnswersAsSoonAsItsInputMovesOn) {
  const std::string sub = testing::write_file("sparse.yaml", R"(name: sparse
inputs: [in]
outputs: [out]
actors:
  every_50th: {type: filter, where: "/v % 50 == 0"}
connections:
  - in -> every_50th
  - every_50th -> out
)");
  auto workflow = testing::load(R"(name: behind_a_sub_workflow
actors:
  src: {type: generator, count: 200, value: "{v: i + 1}", interval: 1 s, start_time: 1 s, batch: 1}
  sparse: {workflow: ")" + sub + R"("}
  look: {type: lookup, key: "0", probe: "0", emit: "{v: /v, last: found/v}"}
connections:
  - src -> sparse.in
  - sparse.out -> look.table
  - src -> look.in
)");
  auto& out = testing::collect(*workflow, "look");
  auto& look = static_cast<Lookup&>(*workflow->actor(*workflow->find("look")).actor);
  RunSummary summary = testing::run_under(*workflow, GetParam());
  Lines expected;
  for (int i = 1; i <= 200; ++i)
    expected.push_back("{\"v\":" + std::to_string(i) + ",\"last\":" +
                       (i < 50 ? std::string("null") : std::to_string(i / 50 * 50)) + "}");
  EXPECT_EQ(out.json(), expected);
  EXPECT_LE(look.most_waiting(), 3u);
  for (const auto& a : summary.actors)
    EXPECT_EQ(a.incomplete(), 0u) << a.name;
}

INSTANTIATE_TEST_SUITE_P(EveryDirector, LookupUnder, ::testing::ValuesIn(testing::kEveryDirector),
                         [](const auto& info) { return testing::director_label(info.param); });

// update folds a key's changes (null forgets it); probe_each looks up several keys at once.
TEST(Lookup, UpdateFoldsChangesAndProbeEachFindsSeveralKeys) {
  auto keys = Value::record({{"keys", Value::array({Value("a"), Value("b")})}});
  Harness h;
  auto& out = wire_lookup(
      h, arrivals({{1, 2, keys}, {2, 3, keys}, {3, 4, keys}}),
      arrivals({{1, 1, kv("a", "v", Value(1))},
                {2, 2, kv("a", "v", Value(2))},
                {3, 3, kv("b", "v", Value(5))},
                {4, 4, kv("a", "v", Value(0))}}),
      testing::make("lookup",
                    {{"key", Value("/k")},
                     {"update", Value("/v == 0 ? null : (state == null ? 0 : state) + /v")},
                     {"probe", Value("/keys")},
                     {"probe_each", Value(true)},
                     {"emit", Value("found")}}));
  h.run();
  EXPECT_EQ(out.json(), (Lines{"[3,null]", "[3,5]", "[null,5]"}));
}

// forget_after: a key unchanged for that long is gone (by event time, either side's).
TEST(Lookup, AKeyUnchangedForForgetAfterIsForgotten) {
  Harness h;
  auto& out = wire_lookup(
      h, arrivals({{1, 5, Value("a")}, {2, 10, Value("a")}, {3, 11, Value("a")}}),
      arrivals({{1, 1, kv("a", "v", Value(1))}}),
      testing::make("lookup", {{"key", Value("/k")},
                               {"probe", Value("/")},
                               {"emit", Value("[found/v]")},
                               {"forget_after", Value(static_cast<std::int64_t>(10 * kSecond))}}));
  h.run();
  // Changed at 1 s: still there at 10 s (9 s later), gone at 11 s (10 s later).
  EXPECT_EQ(out.json(), (Lines{"[1]", "[1]", "[null]"}));
}

TEST(Lookup, AnEventBehindItsSideIsLateAndBadExpressionsAreErrors) {
  Harness h;
  auto& out = wire_lookup(h, arrivals({{1, 7, Value("a")}, {2, 8, Value(1)}}),
                          arrivals({{1, 5, kv("a", "v", Value(1))},
                                    {2, 3, kv("a", "v", Value(2))},
                                    {3, 6, Value::record({})}}),
                          testing::make("lookup", {{"key", Value("/k")},
                                                   {"probe", Value("/")},
                                                   {"probe_each", Value(true)},
                                                   {"emit", Value("found")}}));
  RunSummary summary = h.run();
  EXPECT_TRUE(out.json().empty());
  for (const auto& a : summary.actors)
    if (a.name == "look") {
      EXPECT_EQ(a.late, 1u);
    }
  // The key of {} is null; "a" and 1 are no arrays of keys.
  EXPECT_EQ(Harness::errors(summary, "look"), 3u);
  EXPECT_EQ(testing::param_error("lookup", {{"key", Value("/k")},
                                            {"probe", Value("/k")},
                                            {"emit", Value("found")},
                                            {"forget_after", Value(std::int64_t{0})}}),
            "forget_after: forget_after must be above 0");
  EXPECT_NE(testing::param_error("lookup", {{"key", Value("/k")}, {"emit", Value("found")}}), "");
}

// Saves the lookup's state when its first output arrives (one worker: the lookup does not fire
// meanwhile), with events still waiting for the table's side.
class SaveOnFirstOutput final : public Actor {
 public:
  explicit SaveOnFirstOutput(Lookup& lookup) : lookup_(lookup) { add_input("in"); }
  void fire(FiringContext& context) override {
    if (bytes.empty()) bytes = testing::saved_state(lookup_, context);
  }
  std::vector<std::uint8_t> bytes;

 private:
  Lookup& lookup_;
};

// A checkpoint keeps the events waiting and the table: a fresh lookup restored from it saves the
// same bytes. The orders at 2, 3 and 4 s wait for the prices to move past them; the price at 3 s
// releases the first.
TEST(Lookup, ItsWaitingEventsAndTableSurviveACheckpoint) {
  auto make = [] {
    return testing::make("lookup",
                         {{"key", Value("/k")},
                          {"probe", Value("/k")},
                          {"emit", Value("found")},
                          {"forget_after", Value(static_cast<std::int64_t>(60 * kSecond))}});
  };
  auto owned = make();
  auto& look = static_cast<Lookup&>(*owned);
  Harness h;
  auto& out = wire_lookup(h,
                          arrivals({{1, 2, kv("a", "q", Value(0))},
                                    {2, 3, kv("a", "q", Value(1))},
                                    {3, 4, kv("b", "q", Value(2))}}),
                          arrivals({{1, 1, kv("a", "v", Value(1))},
                                    {2, 1, kv("b", "v", Value(2))},
                                    {4, 3, kv("a", "v", Value(3))},
                                    {6, 9, kv("a", "v", Value(4))}}),
                          std::move(owned));
  auto saver = std::make_unique<SaveOnFirstOutput>(look);
  auto& saved = *saver;
  h.add("saver", std::move(saver));
  h.connect("look", "saver");
  h.run();
  EXPECT_EQ(out.json(), (Lines{R"({"k":"a","v":1})", R"({"k":"a","v":3})", R"({"k":"b","v":2})"}));
  ASSERT_FALSE(saved.bytes.empty());
  // Restored, it holds what it held: both keys, and what waited when it was saved (the orders
  // at 3 and 4 s and the price at 3 s: the table's side had not moved past it).
  testing::expect_state_round_trip<Lookup>([&](ActorContext&) { return saved.bytes; }, make(),
                                           [](Lookup& fresh) {
                                             EXPECT_EQ(fresh.keys(), 2u);
                                             EXPECT_EQ(fresh.waiting(), 3u);
                                           });
}

}  // namespace
}  // namespace cwf::actors
