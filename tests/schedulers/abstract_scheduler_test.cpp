// The Abstract Scheduler's bookkeeping: an actor handed out is RUNNING until it reports back, and
// a transition the model does not have is refused loudly instead of corrupting the queues.
#include "schedulers/abstract_scheduler.hpp"

#include <gtest/gtest.h>

namespace cwf::schedulers {
namespace {

// A policy that does what the test asks, to reach each transition.
class ScriptedPolicy final : public AbstractScheduler {
 public:
  std::string_view name() const override { return "scripted"; }
  void actor_got_work(ActorId actor) override { make_active(actor, 0); }
  std::optional<Grant> next_actor() override {
    auto next = take_active();
    if (!next) return std::nullopt;
    return Grant{*next, 1};
  }
  void iteration_ended() override {}

  using AbstractScheduler::label_source;
  using AbstractScheduler::make_active;
  using AbstractScheduler::make_inactive;
  using AbstractScheduler::make_waiting;
  using AbstractScheduler::run_source;

 private:
  void on_firing_ended(ActorId actor, const FiringReport& report) override {
    if (report.has_more_work) make_waiting(actor, 0);
  }
};

std::vector<SchedulableActor> actors(std::vector<bool> sources) {
  std::vector<SchedulableActor> out;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    SchedulableActor a;
    a.id = static_cast<ActorId>(i);
    a.name = "a" + std::to_string(i);
    a.is_source = sources[i];
    a.queue_length = [] { return std::size_t{0}; };
    a.inbox_length = [] { return std::size_t{0}; };
    out.push_back(std::move(a));
  }
  return out;
}

TEST(AbstractScheduler, AnActorHandedOutIsRunningUntilItReportsBack) {
  ScriptedPolicy policy;
  auto list = actors({false, false});
  policy.attach(list);
  policy.actor_got_work(1);
  EXPECT_EQ(policy.state(1), ActorState::active);
  auto grant = policy.next_actor();
  ASSERT_TRUE(grant);
  EXPECT_EQ(grant->actor, 1u);
  EXPECT_EQ(policy.state(1), ActorState::running);
  policy.firing_ended(1, FiringReport{.firings = 1, .has_more_work = true});
  EXPECT_EQ(policy.state(1), ActorState::waiting);
  policy.make_active(1, 0);
  EXPECT_EQ(policy.state(1), ActorState::active);
  policy.make_inactive(1);
  EXPECT_EQ(policy.state(1), ActorState::inactive);
  EXPECT_STREQ(to_string(ActorState::running), "RUNNING");
}

TEST(AbstractScheduler, TransitionsOutsideTheModelAreRefused) {
  ScriptedPolicy policy;
  auto list = actors({false, true});
  policy.attach(list);
  // Reporting back an actor that was never handed out.
  EXPECT_THROW(policy.firing_ended(0, FiringReport{}), SchedulerStateError);
  policy.actor_got_work(0);
  ASSERT_TRUE(policy.next_actor());
  // Queuing an actor while it fires: it would be handed out twice at once.
  EXPECT_THROW(policy.make_active(0, 0), SchedulerStateError);
  EXPECT_THROW(policy.make_waiting(0, 0), SchedulerStateError);
  EXPECT_THROW(policy.make_inactive(0), SchedulerStateError);
  // Source labels are for sources, and a running source cannot be relabelled or run again.
  EXPECT_THROW(policy.label_source(0, ActorState::active), SchedulerStateError);
  policy.run_source(1);
  EXPECT_THROW(policy.label_source(1, ActorState::active), SchedulerStateError);
  EXPECT_THROW(policy.run_source(1), SchedulerStateError);
  try {
    policy.make_active(0, 0);
  } catch (const SchedulerStateError& e) {
    EXPECT_STREQ(e.what(), "scripted scheduler: actor 0 cannot go from RUNNING to ACTIVE");
  }
}

}  // namespace
}  // namespace cwf::schedulers
