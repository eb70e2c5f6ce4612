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
#include "tests/guards/guard_test_util.hpp"

namespace cwf::guards {
namespace {

// Deeper than the actors' property tests, with T and 0 among the leaves.
constexpr testing::ExpressionShape kShape{
    .leaf = 35, .sequence = 60, .choice = 85, .constants = true};

std::string describe(const Trace& trace) {
  return "<" + testing::describe(trace) + " >";
}

class Theorem6 : public ::testing::TestWithParam<unsigned> {};

TEST_P(Theorem6, GuardsAllowExactlyTheTracesSatisfyingEveryDependency) {
  std::mt19937 random(GetParam());
  constexpr int kWorkflows = 60;
  std::size_t allowed_traces = 0, refused_traces = 0;
  for (int w = 0; w < kWorkflows; ++w) {
    DependencySet workflow = testing::random_workflow(random, 3, kShape);
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
      bool satisfied = testing::satisfies_all(workflow, trace);
      ASSERT_EQ(allowed, satisfied) << "seed " << GetParam() << ", workflow " << w << ":\n"
                                    << testing::describe(workflow) << "trace " << describe(trace);
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
    EventExpr d = testing::random_expression(random, 3, 3, kShape);
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
