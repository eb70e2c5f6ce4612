// The guard actors never let the dependencies be violated: random small workflows (1-3
// dependencies over 1-4 events, fixed seeds), each event attempted once as itself or its
// complement in a random order (a third of the events triggerable), run through a
// guard_scheduler. The events that happened (in
// order) must be a trace that can still be completed into one satisfying every dependency, and
// when every event was decided, it must satisfy every dependency itself.
#include <gtest/gtest.h>

#include <random>

#include "actors/guards/event_parser.hpp"
#include "actors/guards/guard_scheduler.hpp"
#include "actors/guards/trace_semantics.hpp"
#include "runtime/clock.hpp"
#include "runtime/runner.hpp"
#include "runtime/scheduled_director.hpp"
#include "schedulers/fifo_scheduler.hpp"
#include "tests/runtime/test_actors.hpp"

namespace cwf::guards {
namespace {

EventExpr random_dependency(std::mt19937& random, int events, int depth) {
  std::uniform_int_distribution<int> pick(0, 99);
  int roll = pick(random);
  if (depth == 0 || roll < 40) {
    std::uniform_int_distribution<int> event(1, events);
    return EventExpr::of(Literal{"e" + std::to_string(event(random)), pick(random) < 40});
  }
  std::vector<EventExpr> parts{random_dependency(random, events, depth - 1),
                               random_dependency(random, events, depth - 1)};
  if (roll < 65) return EventExpr::sequence(std::move(parts));
  if (roll < 90) return EventExpr::choice(std::move(parts));
  return EventExpr::conjunction(std::move(parts));
}

std::vector<Literal> happened_events(const DependencySet& set, const std::vector<Value>& attempts) {
  Workflow workflow("property");
  workflow.add("attempts", std::make_unique<cwf::testing::ListSource>(attempts));
  workflow.add("guards", make_guard_scheduler(set));
  auto collect = std::make_unique<cwf::testing::Collect>();
  auto& outcomes = *collect;
  workflow.add("outcomes", std::move(collect));
  workflow.connect("attempts", "guards");
  workflow.connect("guards", "outcomes");
  VirtualClock clock(0);
  ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>());
  run_workflow(workflow, director, clock);
  std::vector<Literal> trace;
  for (const Value& token : outcomes.tokens()) {
    std::string outcome(token.field("outcome")->as_string());
    if (outcome == "parked" || outcome == "refused" || outcome == "duplicate") continue;
    std::string event(token.field("event")->as_string());
    trace.push_back(parse_literal(event));
  }
  return trace;
}

std::string describe(const std::vector<Literal>& trace) {
  std::string text;
  for (const Literal& l : trace)
    text += " " + l.text();
  return text;
}

class GuardActorsProperty : public ::testing::TestWithParam<unsigned> {};

TEST_P(GuardActorsProperty, HappenedEventsNeverViolateTheDependencies) {
  std::mt19937 random(GetParam());
  std::size_t complete = 0;
  for (int w = 0; w < 60; ++w) {
    std::uniform_int_distribution<int> event_count(1, 4), dependency_count(1, 3);
    int events = event_count(random);
    DependencySet set;
    int dependencies = dependency_count(random);
    for (int i = 0; i < dependencies; ++i)
      set.dependencies.push_back(random_dependency(random, events, 2));
    for (const EventExpr& d : set.dependencies)
      for (const std::string& e : events_of(d))
        if (std::find(set.events.begin(), set.events.end(), e) == set.events.end())
          set.events.push_back(e);
    for (const std::string& e : set.events)
      if (random() % 3 == 0) set.attributes[e].triggerable = true;
    std::vector<std::string> order = set.events;
    std::shuffle(order.begin(), order.end(), random);
    std::vector<Value> attempts;
    for (const std::string& e : order)
      attempts.push_back(Value::record({{"event", Value((random() % 3 == 0 ? "~" : "") + e)}}));
    std::vector<Literal> trace = happened_events(set, attempts);

    std::string text;
    for (const EventExpr& d : set.dependencies)
      text += "  " + to_text(d) + "\n";
    bool satisfiable_extension = false;
    for (const Trace& full : maximal_traces(set.events)) {
      if (!std::equal(trace.begin(), trace.end(), full.begin())) continue;
      if (std::all_of(set.dependencies.begin(), set.dependencies.end(),
                      [&](const EventExpr& d) { return satisfies(full, d); })) {
        satisfiable_extension = true;
        break;
      }
    }
    // A workflow no trace satisfies has nothing to keep: its events outside the unsatisfiable
    // dependency may still happen (their guards do not see it), but no trace is ever complete.
    bool any = false;
    for (const Trace& full : maximal_traces(set.events))
      any |= std::all_of(set.dependencies.begin(), set.dependencies.end(),
                         [&](const EventExpr& d) { return satisfies(full, d); });
    if (!any) continue;
    EXPECT_TRUE(satisfiable_extension) << "seed " << GetParam() << ", workflow " << w << ":\n"
                                       << text << "happened:" << describe(trace);
    complete += trace.size() == set.events.size();
  }
  EXPECT_GT(complete, 5u);  // enough runs decide every event to mean something
}

INSTANTIATE_TEST_SUITE_P(Seeds, GuardActorsProperty, ::testing::Values(11u, 12u, 13u, 14u, 15u));

}  // namespace
}  // namespace cwf::guards
