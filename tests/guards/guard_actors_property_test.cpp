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
#include "tests/guards/guard_test_util.hpp"

namespace cwf::guards {
namespace {

using testing::describe;
using testing::satisfies_all;

std::vector<Literal> happened_events(const DependencySet& set, const std::vector<Value>& attempts) {
  std::vector<Literal> trace;
  for (const Value& token : testing::outcomes_of(make_guard_scheduler(set), attempts)) {
    std::string outcome(token.field("outcome")->as_string());
    if (outcome == "parked" || outcome == "refused" || outcome == "duplicate") continue;
    std::string event(token.field("event")->as_string());
    trace.push_back(parse_literal(event));
  }
  return trace;
}

class GuardActorsProperty : public ::testing::TestWithParam<unsigned> {};

TEST_P(GuardActorsProperty, HappenedEventsNeverViolateTheDependencies) {
  std::mt19937 random(GetParam());
  std::size_t complete = 0;
  for (int w = 0; w < 60; ++w) {
    DependencySet set = testing::random_workflow(random);
    for (const std::string& e : set.events)
      if (random() % 3 == 0) set.attributes[e].triggerable = true;
    std::vector<std::string> order = set.events;
    std::shuffle(order.begin(), order.end(), random);
    std::vector<Value> attempts;
    for (const std::string& e : order)
      attempts.push_back(Value::record({{"event", Value((random() % 3 == 0 ? "~" : "") + e)}}));
    std::vector<Literal> trace = happened_events(set, attempts);

    bool satisfiable_extension = false;
    for (const Trace& full : maximal_traces(set.events)) {
      if (!std::equal(trace.begin(), trace.end(), full.begin())) continue;
      if (satisfies_all(set, full)) {
        satisfiable_extension = true;
        break;
      }
    }
    // A workflow no trace satisfies has nothing to keep: its events outside the unsatisfiable
    // dependency may still happen (their guards do not see it), but no trace is ever complete.
    bool any = false;
    for (const Trace& full : maximal_traces(set.events))
      any |= satisfies_all(set, full);
    if (!any) continue;
    EXPECT_TRUE(satisfiable_extension) << "seed " << GetParam() << ", workflow " << w << ":\n"
                                       << describe(set) << "happened:" << describe(trace);
    complete += trace.size() == set.events.size();
  }
  EXPECT_GT(complete, 5u);  // enough runs decide every event to mean something
}

INSTANTIATE_TEST_SUITE_P(Seeds, GuardActorsProperty, ::testing::Values(11u, 12u, 13u, 14u, 15u));

}  // namespace
}  // namespace cwf::guards
