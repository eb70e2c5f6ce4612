// Theorem 6 (Singh §4.4): the maximal traces the guards allow are exactly those that satisfy
// every dependency. Checked on random small workflows: a trace is allowed when each of its
// events' guards (conjoined over the dependencies mentioning the event) holds at the point the
// event happens, under the temporal semantics over maximal traces; it satisfies the workflow
// when the semantics of the event language, applied directly to each dependency as written,
// holds on it.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "actors/guards/guard_synthesis.hpp"
#include "actors/guards/residuation.hpp"
#include "actors/guards/trace_semantics.hpp"

namespace cwf::guards {
namespace {

EventExpr random_expression(std::mt19937& random, int events, int depth) {
  std::uniform_int_distribution<int> pick(0, 99);
  int roll = pick(random);
  if (depth == 0 || roll < 35) {
    if (roll < 2) return EventExpr::top();
    if (roll < 4) return EventExpr::zero();
    std::uniform_int_distribution<int> event(1, events);
    return EventExpr::of(Literal{"e" + std::to_string(event(random)), pick(random) < 40});
  }
  std::vector<EventExpr> parts{random_expression(random, events, depth - 1),
                               random_expression(random, events, depth - 1)};
  if (roll < 60) return EventExpr::sequence(std::move(parts));
  if (roll < 85) return EventExpr::choice(std::move(parts));
  return EventExpr::conjunction(std::move(parts));
}

struct Workflow {
  std::vector<EventExpr> dependencies;
  std::vector<std::string> events;
};

Workflow random_workflow(std::mt19937& random) {
  std::uniform_int_distribution<int> event_count(1, 4), dependency_count(1, 3);
  int events = event_count(random);
  Workflow workflow;
  int dependencies = dependency_count(random);
  // A dependency that mentions no event (0, T) is on no event's guard, so the theorem is
  // about dependencies that mention events: draw again.
  while (static_cast<int>(workflow.dependencies.size()) < dependencies) {
    EventExpr d = random_expression(random, events, 3);
    if (!events_of(d).empty()) workflow.dependencies.push_back(std::move(d));
  }
  for (const EventExpr& d : workflow.dependencies)
    for (const std::string& e : events_of(d))
      if (std::find(workflow.events.begin(), workflow.events.end(), e) == workflow.events.end())
        workflow.events.push_back(e);
  return workflow;
}

std::string describe(const Workflow& workflow) {
  std::string text;
  for (const EventExpr& d : workflow.dependencies)
    text += "  " + to_text(d) + "\n";
  return text;
}

std::string describe(const Trace& trace) {
  std::string text = "<";
  for (const Literal& l : trace)
    text += " " + l.text();
  return text + " >";
}

class Theorem6 : public ::testing::TestWithParam<unsigned> {};

TEST_P(Theorem6, GuardsAllowExactlyTheTracesSatisfyingEveryDependency) {
  std::mt19937 random(GetParam());
  constexpr int kWorkflows = 60;
  std::size_t allowed_traces = 0, refused_traces = 0;
  for (int w = 0; w < kWorkflows; ++w) {
    Workflow workflow = random_workflow(random);
    if (workflow.events.empty()) continue;
    std::map<Literal, Guard> guards;
    for (const std::string& e : workflow.events)
      for (bool complement : {false, true})
        guards.emplace(Literal{e, complement},
                       guard_in_workflow(workflow.dependencies, Literal{e, complement}));
    for (const Trace& trace : maximal_traces(workflow.events)) {
      bool allowed = true;
      for (std::size_t k = 0; k < trace.size() && allowed; ++k)
        allowed = guards.at(trace[k]).holds_at(TracePoint{trace, k});
      bool satisfied = std::all_of(workflow.dependencies.begin(), workflow.dependencies.end(),
                                   [&](const EventExpr& d) { return satisfies(trace, d); });
      ASSERT_EQ(allowed, satisfied) << "seed " << GetParam() << ", workflow " << w << ":\n"
                                    << describe(workflow) << "trace " << describe(trace);
      ++(allowed ? allowed_traces : refused_traces);
    }
  }
  // Both outcomes must be exercised, or the comparison says little.
  EXPECT_GT(allowed_traces, 100u);
  EXPECT_GT(refused_traces, 100u);
  std::cout << "seed " << GetParam() << ": " << allowed_traces << " traces allowed, "
            << refused_traces << " refused\n";
}

INSTANTIATE_TEST_SUITE_P(Seeds, Theorem6, ::testing::Values(1u, 2u, 3u, 4u, 5u));

// The reference semantics itself, on the paper's Example 1 and Examples 2-3.
TEST(TraceSemantics, KleinsDependencies) {
  Literal e{"e", false}, not_e{"e", true}, f{"f", false}, not_f{"f", true};
  EventExpr order = EventExpr::choice({EventExpr::of(not_e), EventExpr::of(not_f),
                                       EventExpr::sequence({EventExpr::of(e), EventExpr::of(f)})});
  EXPECT_TRUE(satisfies({e, f}, order));
  EXPECT_FALSE(satisfies({f, e}, order));
  EXPECT_TRUE(satisfies({f, not_e}, order));
  EXPECT_EQ(maximal_traces({"e", "f"}).size(), 8u);
}

// Residuation agrees with Semantics 6 on maximal traces: v ⊨ D/x iff x·v ⊨ D.
TEST_P(Theorem6, ResiduationMatchesItsSemanticsOnMaximalTraces) {
  std::mt19937 random(GetParam() + 100);
  for (int w = 0; w < 60; ++w) {
    EventExpr d = random_expression(random, 3, 3);
    EventExpr normal = normalise(d);
    std::vector<std::string> events = events_of(d);
    if (events.empty()) continue;
    for (const Trace& trace : maximal_traces(events)) {
      ASSERT_EQ(satisfies(trace, d), satisfies(trace, normal)) << to_text(d);
      Trace rest(trace.begin() + 1, trace.end());
      ASSERT_EQ(satisfies(trace, d), satisfies(rest, residuate(normal, trace.front())))
          << to_text(d) << " / " << trace.front().text() << " on " << describe(trace);
    }
  }
}

}  // namespace
}  // namespace cwf::guards
