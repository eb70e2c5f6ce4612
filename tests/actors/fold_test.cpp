// fold (actors/fold.hpp): keyed state, folded over each key's events in arrival order.
#include "actors/fold.hpp"

#include <gtest/gtest.h>

#include "runtime/actor/actor_context.hpp"
#include "tests/actors/actor_test_util.hpp"

namespace cwf::actors {
namespace {

using testing::Arrivals;
using testing::Harness;
using Lines = std::vector<std::string>;

// Records {k, v} at the given event times (seconds), one a second of the virtual clock.
std::unique_ptr<Actor> events(std::vector<std::tuple<const char*, int, int>> items) {
  std::vector<Arrivals::Item> out;
  Timestamp arrival = 0;
  for (auto [k, v, seconds] : items)
    out.push_back({arrival += kSecond, static_cast<Timestamp>(seconds) * kSecond,
                   Value::record({{"k", Value(k)}, {"v", Value(v)}})});
  return std::make_unique<Arrivals>(std::move(out));
}

TEST(Fold, EachKeysStateFoldsItsEventsAndTheNewStateIsSentOn) {
  Harness h;
  h.add("src", events({{"a", 1, 1}, {"b", 10, 2}, {"a", 2, 3}, {"a", 3, 4}, {"b", 20, 5}}));
  h.add("sum", "fold",
        {{"key", Value("/k")}, {"update", Value("(state == null ? 0 : state) + /v")}});
  h.connect("src", "sum");
  auto& out = h.collect("sum");
  h.run();
  EXPECT_EQ(out.json(), (Lines{"1", "10", "3", "6", "30"}));
}

// emit sees the new state and the previous one; a null state forgets the key (it starts again
// from null).
TEST(Fold, EmitSeesTheNewAndThePreviousStateAndANullStateForgetsTheKey) {
  Harness h;
  h.add("src", events({{"a", 1, 1}, {"a", 0, 2}, {"a", 5, 3}, {"a", 7, 4}}));
  h.add("f", "fold",
        {{"key", Value("/k")},
         {"update", Value("/v == 0 ? null : (state == null ? 0 : state) + /v")},
         {"emit", Value("{was: previous, now: state}")}});
  h.connect("src", "f");
  auto& out = h.collect("f");
  h.run();
  EXPECT_EQ(out.json(), (Lines{R"({"was":null,"now":1})", R"({"was":1,"now":null})",
                               R"({"was":null,"now":5})", R"({"was":5,"now":12})"}));
}

// forget_after: a key quiet that long behind the latest event time is forgotten as events
// arrive; its next event starts from null. b at 2 s is 10 s behind a's event at 12 s.
TEST(Fold, AKeyQuietForForgetAfterIsForgotten) {
  Harness h;
  h.add("src", events({{"b", 1, 2}, {"a", 1, 11}, {"b", 1, 11}, {"a", 1, 12}, {"b", 1, 22}}));
  h.add("count", "fold",
        {{"key", Value("/k")},
         {"update", Value("(state == null ? 0 : state) + /v")},
         {"forget_after", Value(static_cast<std::int64_t>(10 * kSecond))}});
  h.connect("src", "count");
  auto& out = h.collect("count");
  h.run();
  // b: 1 at 2 s; at 11 s b is 9 s behind: kept (2); at 22 s, 11 s behind: forgotten (1).
  EXPECT_EQ(out.json(), (Lines{"1", "1", "2", "2", "1"}));
}

TEST(Fold, ANullKeyOrAFailingUpdateIsAnErrorAndChangesNothing) {
  Harness h;
  h.add("src", events({{"a", 1, 1}, {"a", 2, 2}}));
  h.add("f", "fold",
        {{"key", Value("/missing")}, {"update", Value("(state == null ? 0 : state) + /v")}});
  h.connect("src", "f");
  auto& out = h.collect("f");
  RunSummary summary = h.run();
  EXPECT_TRUE(out.json().empty());
  EXPECT_EQ(Harness::errors(summary, "f"), 2u);
  EXPECT_EQ(testing::param_error("fold", {{"key", Value("/k")},
                                          {"update", Value("state")},
                                          {"forget_after", Value(std::int64_t{0})}}),
            "forget_after: forget_after must be above 0");
  try {
    testing::load(
        "name: w\nactors:\n  f: {type: fold, key: /k, update: state, forget_after: soon}\n");
    ADD_FAILURE() << "forget_after: soon was taken";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("forget_after"), std::string::npos) << e.what();
  }
}

// A checkpoint keeps every key's state and latest time: a fresh fold restored from it saves the
// same bytes and goes on with the same states.
TEST(Fold, ItsTableSurvivesACheckpoint) {
  auto fold = [] {
    return testing::make("fold",
                         {{"key", Value("/k")},
                          {"update", Value("(state == null ? 0 : state) + /v")},
                          {"forget_after", Value(static_cast<std::int64_t>(60 * kSecond))}});
  };
  Harness h;
  h.add("src", events({{"a", 1, 1}, {"b", 10, 2}, {"a", 2, 3}}));
  auto owned = fold();
  auto& f = static_cast<Fold&>(*owned);
  h.add("f", std::move(owned));
  h.connect("src", "f");
  auto& out = h.collect("f");
  h.run();
  EXPECT_EQ(out.json(), (Lines{"1", "10", "3"}));
  testing::expect_state_round_trip<Fold>(f, fold(),
                                         [](Fold& fresh) { EXPECT_EQ(fresh.keys(), 2u); });
}

}  // namespace
}  // namespace cwf::actors
