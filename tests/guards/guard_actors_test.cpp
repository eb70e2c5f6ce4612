// The guard actors at work: a guard_scheduler built from inline dependencies, fed attempts, its
// outcomes collected in order (the inner director fires in the order actors got work, so the
// order is reproducible).
#include <gtest/gtest.h>

#include "actors/guards/event_guard.hpp"
#include "actors/guards/event_parser.hpp"
#include "actors/guards/guard_scheduler.hpp"
#include "runtime/execution/composite_actor.hpp"
#include "tests/guards/guard_test_util.hpp"

namespace cwf::guards {
namespace {

std::vector<Value> strings(const std::vector<std::string>& texts) {
  std::vector<Value> values;
  for (const std::string& text : texts)
    values.push_back(Value(text));
  return values;
}

struct Scenario {
  std::vector<std::string> dependencies;
  std::vector<std::string> triggerable = {};
  std::vector<std::string> non_rejectable = {};
};

// Runs the attempts through a guard scheduler; the outcomes as JSON lines.
std::vector<std::string> run(const Scenario& scenario, const std::vector<Value>& attempts) {
  Params params({{"file", Value("")},
                 {"dependencies", Value::array(strings(scenario.dependencies))},
                 {"triggerable", Value::array(strings(scenario.triggerable))},
                 {"non_rejectable", Value::array(strings(scenario.non_rejectable))}},
                {}, "");
  std::vector<std::string> lines;
  for (const Value& token : testing::outcomes_of(guard_scheduler_type().factory(params), attempts))
    lines.push_back(token.to_json());
  return lines;
}

Value attempt(const std::string& event) {
  return Value::record({{"event", Value(event)}});
}
Value attempt(const std::string& event, int cid) {
  return Value::record({{"event", Value(event)}, {"cid", Value(cid)}});
}

TEST(GuardActors, Example10ParkedEventProceedsWhenTheComplementIsAnnounced) {
  EXPECT_EQ(run({{"~e + ~f + e\u00b7f"}}, {attempt("f"), attempt("~e")}),
            (std::vector<std::string>{R"({"event":"f","outcome":"parked"})",
                                      R"({"event":"~e","outcome":"accepted"})",
                                      R"({"event":"f","outcome":"released"})"}));
}

TEST(GuardActors, OrderDependencyAcceptsTheFirstEventWhileTheSecondHasNotHappened) {
  EXPECT_EQ(run({{"~e + ~f + e.f"}}, {attempt("e"), attempt("f")}),
            (std::vector<std::string>{R"({"event":"e","outcome":"accepted"})",
                                      R"({"event":"f","outcome":"accepted"})"}));
  // f first and then e: e's guard ¬f still holds (f is parked, it has not happened).
  EXPECT_EQ(run({{"~e + ~f + e.f"}}, {attempt("f"), attempt("e")}),
            (std::vector<std::string>{R"({"event":"f","outcome":"parked"})",
                                      R"({"event":"e","outcome":"accepted"})",
                                      R"({"event":"f","outcome":"released"})"}));
}

TEST(GuardActors, AnEventWhoseGuardIsZeroIsRejected) {
  EXPECT_EQ(run({{"~e"}}, {attempt("e"), attempt("e")}),
            (std::vector<std::string>{R"({"event":"~e","outcome":"rejected"})",
                                      R"({"event":"e","outcome":"refused"})"}));
}

TEST(GuardActors, AParkedEventIsRejectedWhenItsGuardBecomesZero) {
  // e only after x: e waits for □x. ~x needs ◇~e, which the parked e promises (it will be
  // rejected if ~x happens); ~x proceeds and e is rejected.
  EXPECT_EQ(run({{"~e + x\u00b7e"}}, {attempt("e"), attempt("~x")}),
            (std::vector<std::string>{R"({"event":"e","outcome":"parked"})",
                                      R"({"event":"~x","outcome":"accepted"})",
                                      R"({"event":"~e","outcome":"rejected"})"}));
}

TEST(GuardActors, APromisedRejectionLetsTheOtherEventProceed) {
  // e before f if e happens, and f needs g. The parked e waits for ◇f ∧ ¬f, which f's
  // happening would make 0: e promises ◇~e to f, so f proceeds and e is rejected.
  EXPECT_EQ(
      run({{"~e + e\u00b7f", "~f + g"}}, {attempt("e"), attempt("g"), attempt("f")}),
      (std::vector<std::string>{
          R"({"event":"e","outcome":"parked"})", R"({"event":"g","outcome":"accepted"})",
          R"({"event":"f","outcome":"accepted"})", R"({"event":"~e","outcome":"rejected"})"}));
}

TEST(GuardActors, NonRejectableEventsAreAcceptedWhateverTheirGuard) {
  EXPECT_EQ(run({{"~abort + cleanup"}, {}, {"abort"}}, {attempt("abort")}),
            (std::vector<std::string>{R"({"event":"abort","outcome":"accepted"})"}));
  EXPECT_EQ(run({{"~abort + cleanup"}}, {attempt("abort")}),
            (std::vector<std::string>{R"({"event":"abort","outcome":"parked"})"}));
}

TEST(GuardActors, TriggerableEventsHappenWhenAParkedEventNeedsThem) {
  EXPECT_EQ(run({{"~abort + cleanup"}, {"cleanup"}}, {attempt("abort")}),
            (std::vector<std::string>{R"({"event":"abort","outcome":"parked"})",
                                      R"({"event":"cleanup","outcome":"triggered"})",
                                      R"({"event":"abort","outcome":"released"})"}));
}

TEST(GuardActors, MutualWaitsResolvedByAConditionalPromise) {
  // e → f and f → e: e's guard is ◇f and f's is ◇e. The parked e promises to happen as soon
  // as f does, so f proceeds, and its announcement releases e.
  EXPECT_EQ(run({{"~e + f", "~f + e"}}, {attempt("e"), attempt("f")}),
            (std::vector<std::string>{R"({"event":"e","outcome":"parked"})",
                                      R"({"event":"f","outcome":"accepted"})",
                                      R"({"event":"e","outcome":"released"})"}));
}

TEST(GuardActors, PromisesAreSentWhenAnnouncementsReduceAParkedGuard) {
  // e → f, f → e, and each needs g first: e's guard is □g ∧ ◇f, f's □g ∧ ◇e. Parked before
  // g, neither can promise anything (g alone does not make either guard T); once □g reduces
  // them to ◇f and ◇e, the parked e must promise as it would have if attempted now.
  Scenario both_after_g{{"~e + f", "~f + e", "~e + g.e", "~f + g.f"}};
  EXPECT_EQ(run(both_after_g, {attempt("e"), attempt("f"), attempt("g")}),
            (std::vector<std::string>{
                R"({"event":"e","outcome":"parked"})", R"({"event":"f","outcome":"parked"})",
                R"({"event":"g","outcome":"accepted"})", R"({"event":"f","outcome":"released"})",
                R"({"event":"e","outcome":"released"})"}));
  EXPECT_EQ(run(both_after_g, {attempt("g"), attempt("e"), attempt("f")}),
            (std::vector<std::string>{
                R"({"event":"g","outcome":"accepted"})", R"({"event":"e","outcome":"parked"})",
                R"({"event":"f","outcome":"accepted"})", R"({"event":"e","outcome":"released"})"}));
}

TEST(GuardActors, ASecondAttemptWhileOneIsParkedIsRefusedOrDuplicate) {
  // x waits for ◇y. Attempting ~x or x again must not replace the parked x (which would
  // lose it) nor re-send its trigger: y, triggered once, releases the one parked x.
  EXPECT_EQ(run({{"~x + y"}, {"y"}}, {attempt("x")}),
            (std::vector<std::string>{R"({"event":"x","outcome":"parked"})",
                                      R"({"event":"y","outcome":"triggered"})",
                                      R"({"event":"x","outcome":"released"})"}));
  EXPECT_EQ(run({{"~x + y", "~y + z"}},
                {attempt("x"), attempt("~x"), attempt("x"), attempt("z"), attempt("y")}),
            (std::vector<std::string>{
                R"({"event":"x","outcome":"parked"})", R"({"event":"~x","outcome":"refused"})",
                R"({"event":"x","outcome":"duplicate"})", R"({"event":"z","outcome":"accepted"})",
                R"({"event":"y","outcome":"accepted"})", R"({"event":"x","outcome":"released"})"}));
}

TEST(GuardActors, AGuardWhoseSequencesConflictIsZeroAndRejected) {
  // x before a before b, and x before b before a: x can never happen. Its guard ¬a ∧ ¬b ∧
  // ◇(a·b) ∧ ◇(b·a) must be 0 so that the attempt is rejected rather than parked forever,
  // also over seven events, where guards are not widened exhaustively.
  std::vector<std::string> seven{"~x + x.a.b", "~x + x.b.a"};
  EXPECT_EQ(run({seven}, {attempt("x")}),
            (std::vector<std::string>{R"({"event":"~x","outcome":"rejected"})"}));
  for (const char* other : {"c1", "c2", "c3", "c4", "c5"})
    seven.push_back(std::string("~x + ") + other);
  EXPECT_EQ(run({seven}, {attempt("x")}),
            (std::vector<std::string>{R"({"event":"~x","outcome":"rejected"})"}));
}

const Scenario kBuyTicketBookCar{
    {"~s_buy[cid] + s_book[cid]", "~c_buy[cid] + c_book[cid]\u00b7c_buy[cid]",
     "~c_book[cid] + c_buy[cid] + s_cancel[cid]"},
    {"s_book", "s_cancel"}};

TEST(GuardActors, Example4BothCommit) {
  EXPECT_EQ(
      run(kBuyTicketBookCar, {attempt("s_buy", 1), attempt("c_buy", 1), attempt("c_book", 1)}),
      (std::vector<std::string>{R"({"event":"s_buy","cid":1,"outcome":"parked"})",
                                R"({"event":"s_book","cid":1,"outcome":"triggered"})",
                                R"({"event":"s_buy","cid":1,"outcome":"released"})",
                                R"({"event":"c_buy","cid":1,"outcome":"parked"})",
                                R"({"event":"c_book","cid":1,"outcome":"accepted"})",
                                R"({"event":"c_buy","cid":1,"outcome":"released"})"}));
}

TEST(GuardActors, Example4BuyFailsSoTheBookingIsCancelled) {
  EXPECT_EQ(
      run(kBuyTicketBookCar, {attempt("s_buy", 2), attempt("~c_buy", 2), attempt("c_book", 2)}),
      (std::vector<std::string>{R"({"event":"s_buy","cid":2,"outcome":"parked"})",
                                R"({"event":"s_book","cid":2,"outcome":"triggered"})",
                                R"({"event":"s_buy","cid":2,"outcome":"released"})",
                                R"({"event":"~c_buy","cid":2,"outcome":"parked"})",
                                R"({"event":"s_cancel","cid":2,"outcome":"triggered"})",
                                R"({"event":"~c_buy","cid":2,"outcome":"released"})",
                                R"({"event":"c_book","cid":2,"outcome":"accepted"})"}));
}

TEST(GuardActors, Example4InstancesPerBindingAreIndependent) {
  // Customer 2's commit of the booking does not see customer 1's commit of the ticket.
  EXPECT_EQ(
      run(kBuyTicketBookCar, {attempt("c_book", 1), attempt("c_buy", 2), attempt("c_buy", 1)}),
      (std::vector<std::string>{R"({"event":"c_book","cid":1,"outcome":"parked"})",
                                R"({"event":"s_cancel","cid":1,"outcome":"triggered"})",
                                R"({"event":"c_book","cid":1,"outcome":"released"})",
                                R"({"event":"c_buy","cid":2,"outcome":"parked"})",
                                R"({"event":"c_buy","cid":1,"outcome":"accepted"})"}));
}

TEST(GuardActors, DecidedInstancesKeepNoGuards) {
  // A stream of customers: each one's state shrinks to a marker once its event is decided,
  // instead of two guards per actor for every customer ever seen.
  DependencySet set;
  for (const char* text : {"~s_buy[cid] + s_book[cid]", "~c_buy[cid] + c_book[cid].c_buy[cid]"})
    set.dependencies.push_back(parse_event_expression(text));
  set.events = {"s_buy[cid]", "s_book[cid]", "c_buy[cid]", "c_book[cid]"};
  std::vector<Value> attempts;
  for (int cid = 0; cid < 50; ++cid)
    for (const char* event : {"s_book", "s_buy", "c_book", "c_buy"})
      attempts.push_back(attempt(event, cid));
  attempts.push_back(attempt("c_buy", 3));   // a duplicate, still recognised
  attempts.push_back(attempt("~c_buy", 4));  // refused
  attempts.push_back(attempt("s_buy", 99));  // parked: undecided, its state is kept
  Workflow workflow("test");
  workflow.add("attempts", std::make_unique<cwf::testing::ListSource>(attempts));
  auto scheduler = make_guard_scheduler(set);
  auto& composite = dynamic_cast<CompositeActor&>(*scheduler);
  workflow.add("guards", std::move(scheduler));
  auto collect = std::make_unique<cwf::testing::Collect>();
  auto& outcomes = *collect;
  workflow.add("outcomes", std::move(collect));
  workflow.connect("attempts", "guards");
  workflow.connect("guards", "outcomes");
  VirtualClock clock(0);
  ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>());
  run_workflow(workflow, director, clock);
  ASSERT_EQ(outcomes.tokens().size(), 50u * 4 + 3);
  EXPECT_EQ(outcomes.tokens()[200].to_json(), R"({"event":"c_buy","cid":3,"outcome":"duplicate"})");
  EXPECT_EQ(outcomes.tokens()[201].to_json(), R"({"event":"~c_buy","cid":4,"outcome":"refused"})");
  auto held = [&](const char* name) {
    Workflow& inner = composite.inner();
    return &dynamic_cast<const EventGuard&>(*inner.actor(*inner.find(name)).actor);
  };
  for (const char* name : {"event_c_book", "event_c_buy"}) {
    EXPECT_EQ(held(name)->undecided_instances(), 0u) << name;
    EXPECT_EQ(held(name)->decided_instances(), 50u) << name;
  }
  // Customer 99's parked s_buy, and its promise to s_book, are still to be decided.
  EXPECT_EQ(held("event_s_book")->undecided_instances(), 1u);
  EXPECT_EQ(held("event_s_book")->decided_instances(), 50u);
  EXPECT_EQ(held("event_s_buy")->undecided_instances(), 1u);
  EXPECT_EQ(held("event_s_buy")->decided_instances(), 50u);
}

}  // namespace
}  // namespace cwf::guards
