// A scheduled director's policy replaced while it runs (ScheduledDirector::adopt_policy, what
// `cwf set NAME director.PARAM=VALUE` does): the actors with work are handed to the new policy,
// which alone decides from then on, and nothing is lost, repeated or reordered.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "tests/eventually.hpp"
#include "tests/runtime/test_actors.hpp"
#include "tests/schedulers/all_policies.hpp"
#include "tests/schedulers/branches_in_order.hpp"

namespace cwf::schedulers {
namespace {

using cwf::testing::Collect;
using cwf::testing::eventually;
using cwf::testing::ListSource;
using testing::all_policies;

// A policy that counts the grants it hands out and leaves every decision to the one it wraps.
class CountedPolicy final : public Scheduler {
 public:
  CountedPolicy(std::unique_ptr<Scheduler> inner, std::atomic<int>& grants)
      : inner_(std::move(inner)), grants_(grants) {}
  std::string_view name() const override { return inner_->name(); }
  void attach(std::span<const SchedulableActor> actors) override { inner_->attach(actors); }
  void actor_got_work(ActorId actor) override { inner_->actor_got_work(actor); }
  std::optional<Grant> next_actor() override {
    std::optional<Grant> grant = inner_->next_actor();
    if (grant) grants_.fetch_add(1);
    return grant;
  }
  void firing_started(ActorId actor) override { inner_->firing_started(actor); }
  void firing_ended(ActorId actor, const FiringReport& report) override {
    inner_->firing_ended(actor, report);
  }
  void iteration_started() override { inner_->iteration_started(); }
  void iteration_ended() override { inner_->iteration_ended(); }

 private:
  std::unique_ptr<Scheduler> inner_;
  std::atomic<int>& grants_;
};

// Adds a constant after some busy work, counting what went through.
class CountedAdd : public Actor {
 public:
  CountedAdd(std::int64_t k, std::atomic<int>& passed) : k_(k), passed_(passed) {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(10);
    while (std::chrono::steady_clock::now() < until) {
    }
    context.emit(context.token().as_int() + k_);
    passed_.fetch_add(1);
  }

 private:
  std::int64_t k_;
  std::atomic<int>& passed_;
};

using Change = std::tuple<std::string, std::string, unsigned>;  // from, to, workers
class PolicyChange : public ::testing::TestWithParam<Change> {};

TEST_P(PolicyChange, TheNewPolicyTakesOverTheActorsWithWorkAndNothingIsLostOrReordered) {
  // Plain variables, not a structured binding: the lambdas below capture them (clang 14 cannot
  // capture a binding).
  const auto& [from_, to_, workers_] = GetParam();
  const std::string from = from_, to = to_;
  const unsigned workers = workers_;
  constexpr int kEvents = 5000, kBranches = 3;
  constexpr std::int64_t kOffset = 1'000'000;
  std::vector<Value> input;
  for (int i = 0; i < kEvents; ++i)
    input.emplace_back(i);
  std::atomic<int> passed{0}, old_grants{0}, new_grants{0};
  Workflow wf("branches");
  wf.emplace<ListSource>("src", input);
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  for (int b = 0; b < kBranches; ++b) {
    std::string first = "b" + std::to_string(b) + "a", second = "b" + std::to_string(b) + "b";
    wf.emplace<CountedAdd>(first, b * kOffset, passed);
    wf.emplace<CountedAdd>(second, 1, passed);
    wf.connect("src", first);
    wf.connect(first, second);
    wf.connect(second, "sink");
  }
  ScheduledDirector director(
      std::make_unique<CountedPolicy>(all_policies().create(from, {}), old_grants), workers);
  std::atomic<bool> taken{false};
  std::atomic<int> old_grants_at_switch{-1};
  std::thread changer([&] {
    EXPECT_TRUE(eventually([&] { return passed.load() > 1000; }));
    director.adopt_policy(
        std::make_unique<CountedPolicy>(all_policies().create(to, {}), new_grants), [&] {
          old_grants_at_switch = old_grants.load();
          taken = true;
        });
  });
  RealClock clock;
  run_workflow(wf, director, clock);
  changer.join();

  ASSERT_TRUE(taken.load()) << "the run ended before the new policy was taken";
  EXPECT_EQ(old_grants.load(), old_grants_at_switch.load());  // the old one decided nothing after
  EXPECT_GT(new_grants.load(), 0);
  testing::expect_every_branch_in_order(sink.events, kEvents, kBranches, kOffset, 1);
}

INSTANTIATE_TEST_SUITE_P(Policies, PolicyChange,
                         ::testing::Values(Change{"fifo", "qbs", 1}, Change{"qbs", "rr", 2},
                                           Change{"rr", "rb", 2}, Change{"rb", "fifo", 1},
                                           Change{"qbs", "qbs", 2}),
                         [](const ::testing::TestParamInfo<Change>& info) {
                           return std::get<0>(info.param) + "_to_" + std::get<1>(info.param) + "_" +
                                  std::to_string(std::get<2>(info.param)) + "_workers";
                         });

}  // namespace
}  // namespace cwf::schedulers
