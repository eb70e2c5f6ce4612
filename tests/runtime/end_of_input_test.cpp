// Actor::end_of_input: an actor that holds events back is told once that no input can reach it
// any more, after everything that did reach it, in topological order, under every director.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <mutex>

#include "runtime/execution/runner.hpp"
#include "runtime/windows/window_spec.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"
#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::Collect;
using testing::ListSource;

// Emits nothing while it fires; at the end of input emits every token it took in, each with the
// time it came with, and how many it held then.
class HoldAll final : public Actor {
 public:
  HoldAll() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    for (const Event& e : context.window())
      held_.push_back(e);
  }
  void end_of_input(FiringContext& context) override {
    ++calls;
    port = context.port();
    window_size = context.window().size();
    held_at_end = held_.size();
    for (Event& e : held_) {
      context.set_output_time(e.time);
      context.emit(std::move(e.token));
    }
    held_.clear();
  }
  int calls = 0;
  int port = 0;
  std::size_t window_size = 99;
  std::size_t held_at_end = 0;

 private:
  std::vector<Event> held_;
};

template <typename T, typename... Args>
T* add(Workflow& wf, std::string name, Args&&... args) {
  ActorId id = wf.emplace<T>(std::move(name), std::forward<Args>(args)...);
  return static_cast<T*>(wf.actor(id).actor.get());
}

class EndOfInput : public ::testing::TestWithParam<std::string> {};

// Each hold learns of the end only once the one before it has emitted what it held.
TEST_P(EndOfInput, ReachesAChainInOrderAfterEverythingUpstream) {
  Workflow wf("chain");
  wf.emplace<ListSource>("src", std::vector<Value>{1, 2, 3, 4, 5},
                         std::vector<Timestamp>{10, 20, 30, 40, 50});
  auto* a = add<HoldAll>(wf, "a");
  auto* b = add<HoldAll>(wf, "b");
  auto* c = add<HoldAll>(wf, "c");
  auto* sink = add<Collect>(wf, "sink");
  wf.connect("src", "a");
  wf.connect("a", "b");
  wf.connect("b", "c");
  wf.connect("c", "sink");
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 1);
  RunSummary summary = run_workflow(wf, *director, clock);

  EXPECT_EQ(sink->tokens(), (std::vector<Value>{1, 2, 3, 4, 5}));
  std::vector<Timestamp> times;
  for (const Event& e : sink->events)
    times.push_back(e.time);
  EXPECT_EQ(times, (std::vector<Timestamp>{10, 20, 30, 40, 50}));
  for (HoldAll* hold : {a, b, c}) {
    EXPECT_EQ(hold->calls, 1);
    EXPECT_EQ(hold->held_at_end, 5u);
    EXPECT_EQ(hold->port, -1);
    EXPECT_EQ(hold->window_size, 0u);
  }
  EXPECT_EQ(summary.incomplete(), 0u);
}

// The windows an upstream actor's port closes at the end of input, and what that actor emits
// for them, come before the end of input of the actors after it; both branches of a diamond too.
TEST_P(EndOfInput, ComesAfterWhatUpstreamWindowsReleaseAtTheEnd) {
  Workflow wf("diamond");
  wf.emplace<ListSource>("src", std::vector<Value>{1, 2, 3});
  auto* left = add<HoldAll>(wf, "left");
  wf.emplace<testing::AddConstant>("right", 100);
  auto* join = add<HoldAll>(wf, "join");
  auto* sink = add<Collect>(wf, "sink");
  WindowSpec spec = testing::window("10 tokens", "10 tokens");  // closes only at the end
  wf.connect("src", "out", "left", "in");
  wf.declare_window("left", "in", spec);
  wf.connect("src", "right");
  wf.connect("left", "join");
  wf.connect("right", "join");
  wf.connect("join", "sink");
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 1);
  run_workflow(wf, *director, clock);

  EXPECT_EQ(left->held_at_end, 3u);
  EXPECT_EQ(join->held_at_end, 6u);
  std::vector<Value> got = sink->tokens();
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<Value>{1, 2, 3, 101, 102, 103}));
}

// Actors on a cycle never learn that their input ended; the run still ends.
TEST_P(EndOfInput, ACycleIsNotToldAndTheRunStillEnds) {
  Workflow wf("cycle");
  wf.emplace<ListSource>("src", std::vector<Value>{1});
  auto* a = add<HoldAll>(wf, "a");
  auto* b = add<HoldAll>(wf, "b");
  wf.connect("src", "a");
  wf.connect("a", "b");
  wf.connect("b", "a");
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 1);
  run_workflow(wf, *director, clock);
  EXPECT_EQ(a->calls, 0);
  EXPECT_EQ(b->calls, 0);
}

INSTANTIATE_TEST_SUITE_P(Directors, EndOfInput, ::testing::ValuesIn(testing::kTestDirectors));

}  // namespace
}  // namespace cwf
