#include "experiments/synthetic_cost.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "runtime/execution/runner.hpp"
#include "runtime/execution/threaded_director.hpp"

namespace cwf::experiments {
namespace {

class Numbers final : public Actor {
 public:
  explicit Numbers(int count) : count_(count) { add_output("out", "0, 1, ..."); }
  void fire(FiringContext& context) override { context.emit(Value(next_++)); }
  bool postfire(FiringContext&) override { return next_ < count_; }

 private:
  int count_;
  int next_ = 0;
};

class Twice final : public Actor {
 public:
  Twice() {
    add_input("in", "numbers");
    add_output("out", "doubled");
    add_output("spare");
  }
  void initialize(ActorContext&) override { ++initialized; }
  bool prefire(FiringContext&) override {
    ++prefired;
    return true;
  }
  void fire(FiringContext& context) override { context.emit(Value(context.token().as_int() * 2)); }
  void wrapup(ActorContext&) override { ++wrapped_up; }
  int initialized = 0, prefired = 0, wrapped_up = 0;
};

class Collect final : public Actor {
 public:
  explicit Collect(std::vector<std::int64_t>& into) : into_(into) { add_input("in"); }
  void fire(FiringContext& context) override { into_.push_back(context.token().as_int()); }

 private:
  std::vector<std::int64_t>& into_;
};

struct Fixture {
  std::vector<std::int64_t> seen;
  Workflow workflow;
  Twice* twice = nullptr;
  explicit Fixture(int count) {
    workflow.emplace<Numbers>("numbers", count);
    auto inner = std::make_unique<Twice>();
    twice = inner.get();
    workflow.add("twice", std::move(inner));
    workflow.emplace<Collect>("collect", seen);
    workflow.connect("numbers", "twice");
    workflow.connect("twice", "collect");
  }
};

TEST(SyntheticCostTest, TheDecoratorHasTheSamePortsAndForwardsTheLifecycle) {
  Fixture f(20);
  add_synthetic_cost(f.workflow, "twice", 100'000);  // 100 µs a firing
  Actor& actor = *f.workflow.actor(*f.workflow.find("twice")).actor;
  ASSERT_NE(dynamic_cast<SyntheticCostActor*>(&actor), nullptr);
  EXPECT_EQ(&unwrap(actor), f.twice);
  ASSERT_EQ(actor.inputs().size(), 1u);
  EXPECT_EQ(actor.inputs()[0].name, "in");
  EXPECT_EQ(actor.inputs()[0].doc, "numbers");
  ASSERT_EQ(actor.outputs().size(), 2u);
  EXPECT_EQ(actor.outputs()[1].name, "spare");

  ThreadedDirector director;
  RealClock clock;
  RunSummary summary = run_workflow(f.workflow, director, clock);
  std::vector<std::int64_t> expected;
  for (int i = 0; i < 20; ++i)
    expected.push_back(2 * i);
  EXPECT_EQ(f.seen, expected);
  EXPECT_EQ(f.twice->initialized, 1);
  EXPECT_EQ(f.twice->prefired, 20);
  EXPECT_EQ(f.twice->wrapped_up, 1);
  // The busy work is measured as the actor's cost.
  const ActorSummary& stats = summary.actors[1];
  EXPECT_EQ(stats.firings, 20u);
  EXPECT_GE(stats.cost_ns, 20u * 100'000u);
}

TEST(SyntheticCostTest, TheSwitchTurnsTheBusyWorkOff) {
  Fixture f(200);
  std::atomic<bool> off{true};
  add_synthetic_cost(f.workflow, "twice", 50'000'000, &off);  // 50 ms a firing, unless off
  ThreadedDirector director;
  RealClock clock;
  auto started = std::chrono::steady_clock::now();
  run_workflow(f.workflow, director, clock);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  EXPECT_EQ(f.seen.size(), 200u);
}

TEST(SyntheticCostTest, BusyWaitSpinsForTheDuration) {
  auto started = std::chrono::steady_clock::now();
  busy_wait(2'000'000);
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(2));
  busy_wait(0);
  busy_wait(-5);
}

TEST(SyntheticCostTest, UnknownActorsAndNegativeCostsAreRejected) {
  Fixture f(1);
  EXPECT_THROW(add_synthetic_cost(f.workflow, "nobody", 1000), std::invalid_argument);
  EXPECT_THROW(add_synthetic_cost(f.workflow, "twice", -1), std::invalid_argument);
}

}  // namespace
}  // namespace cwf::experiments
