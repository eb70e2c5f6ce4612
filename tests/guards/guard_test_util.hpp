// Shared by the guard tests: random workflows of dependencies for the property tests, their
// descriptions in failure messages, and a guard scheduler run on a list of attempts.
#pragma once

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "actors/guards/dependency_file.hpp"
#include "actors/guards/trace_semantics.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/time/clock.hpp"
#include "schedulers/fifo_scheduler.hpp"
#include "tests/runtime/test_actors.hpp"

namespace cwf::guards::testing {

// How random_expression draws a node, as percentages of one roll: below `leaf` (or at depth 0)
// a literal (T or 0 for rolls below 2 and 4 when `constants`), then a sequence below
// `sequence`, a choice below `choice`, a conjunction above. Each property test keeps its own
// shape so that its seeds keep drawing the same workflows.
struct ExpressionShape {
  int leaf = 40, sequence = 65, choice = 90;
  bool constants = false;
};

inline EventExpr random_expression(std::mt19937& random, int events, int depth,
                                   const ExpressionShape& shape = {}) {
  std::uniform_int_distribution<int> pick(0, 99);
  int roll = pick(random);
  if (depth == 0 || roll < shape.leaf) {
    if (shape.constants && roll < 2) return EventExpr::top();
    if (shape.constants && roll < 4) return EventExpr::zero();
    std::uniform_int_distribution<int> event(1, events);
    return EventExpr::of(Literal{"e" + std::to_string(event(random)), pick(random) < 40});
  }
  std::vector<EventExpr> parts{random_expression(random, events, depth - 1, shape),
                               random_expression(random, events, depth - 1, shape)};
  if (roll < shape.sequence) return EventExpr::sequence(std::move(parts));
  if (roll < shape.choice) return EventExpr::choice(std::move(parts));
  return EventExpr::conjunction(std::move(parts));
}

// 1-3 dependencies of the given depth over 1-4 events e1…e4; a dependency that mentions no
// event (T, 0) is on no event's guard, so it is drawn again.
inline DependencySet random_workflow(std::mt19937& random, int depth = 2,
                                     const ExpressionShape& shape = {}) {
  std::uniform_int_distribution<int> event_count(1, 4), dependency_count(1, 3);
  int events = event_count(random);
  DependencySet set;
  int dependencies = dependency_count(random);
  while (static_cast<int>(set.dependencies.size()) < dependencies) {
    EventExpr d = random_expression(random, events, depth, shape);
    if (!events_of(d).empty()) set.dependencies.push_back(std::move(d));
  }
  for (const EventExpr& d : set.dependencies)
    for (const std::string& e : events_of(d))
      if (std::find(set.events.begin(), set.events.end(), e) == set.events.end())
        set.events.push_back(e);
  return set;
}

inline bool satisfies_all(const DependencySet& set, const Trace& trace) {
  return std::all_of(set.dependencies.begin(), set.dependencies.end(),
                     [&](const EventExpr& d) { return satisfies(trace, d); });
}

// One dependency a line, for failure messages.
inline std::string describe(const DependencySet& set) {
  std::string text;
  for (const EventExpr& d : set.dependencies)
    text += "  " + to_text(d) + "\n";
  return text;
}

// " l1 l2 …", for failure messages.
inline std::string describe(const Trace& trace) {
  std::string text;
  for (const Literal& l : trace)
    text += " " + l.text();
  return text;
}

// Runs the attempts through `guards` (a guard scheduler) on a virtual clock; the outcome
// records in the order they came out.
inline std::vector<Value> outcomes_of(std::unique_ptr<Actor> guards,
                                      const std::vector<Value>& attempts) {
  Workflow workflow("guards_test");
  workflow.add("attempts", std::make_unique<cwf::testing::ListSource>(attempts));
  workflow.add("guards", std::move(guards));
  auto collect = std::make_unique<cwf::testing::Collect>();
  auto& outcomes = *collect;
  workflow.add("outcomes", std::move(collect));
  workflow.connect("attempts", "guards");
  workflow.connect("guards", "outcomes");
  VirtualClock clock(0);
  ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>());
  run_workflow(workflow, director, clock);
  return outcomes.tokens();
}

}  // namespace cwf::guards::testing
