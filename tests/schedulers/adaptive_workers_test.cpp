// The scheduled director with a WorkerGovernor that changes its mind at every look (every phase
// and hold of no length): workers are set aside and taken back again and again while the run
// goes on, under every policy, and every event still arrives once, in order, and the run ends.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "tests/runtime/test_actors.hpp"
#include "tests/schedulers/all_policies.hpp"

namespace cwf {
namespace {

using testing::Collect;
using testing::ListSource;

class AdaptiveWorkers : public ::testing::TestWithParam<std::string> {};

TEST_P(AdaptiveWorkers, WorkersSetAsideAndTakenBackLoseAndReorderNothing) {
  constexpr int kEvents = 200000;
  std::vector<Value> numbers;
  for (int i = 0; i < kEvents; ++i)
    numbers.emplace_back(i);
  Workflow workflow;
  workflow.add("numbers", std::make_unique<ListSource>(numbers));
  auto& out = static_cast<Collect&>(
      *workflow.actor(workflow.add("out", std::make_unique<Collect>())).actor);
  workflow.connect("numbers", "out", "out", "in");

  DirectorConfig config;
  config.scheduler = GetParam();
  config.workers = 2;
  config.adapt_workers = false;
  auto director = make_director(config, schedulers::testing::all_policies());
  auto& scheduled = dynamic_cast<ScheduledDirector&>(*director);
  WorkerGovernor::Settings restless;
  restless.warm_up = restless.phase = restless.first_hold = restless.longest_hold = 0;
  restless.least_events = 0;
  restless.decisive_lead = 0;  // every trial its four phases: as many changes as can be
  scheduled.adapt_workers(restless);
  RealClock clock;
  run_workflow(workflow, *director, clock);

  ASSERT_EQ(out.size(), static_cast<std::size_t>(kEvents));
  EXPECT_EQ(out.tokens(), numbers);
  ASSERT_NE(scheduled.governor(), nullptr);
  EXPECT_GT(scheduled.governor()->trials(), 0u);
}

TEST(AdaptiveWorkers, OnByDefaultOnSeveralWorkersOffOnOneOrWhenTheFileSaysSo) {
  DirectorConfig config;
  config.workers = 2;
  auto two = make_director(config, schedulers::testing::all_policies());
  EXPECT_NE(dynamic_cast<ScheduledDirector&>(*two).governor(), nullptr);
  config.adapt_workers = false;
  auto fixed = make_director(config, schedulers::testing::all_policies());
  EXPECT_EQ(dynamic_cast<ScheduledDirector&>(*fixed).governor(), nullptr);
  config.adapt_workers = true;
  config.workers = 1;
  auto one = make_director(config, schedulers::testing::all_policies());
  EXPECT_EQ(dynamic_cast<ScheduledDirector&>(*one).governor(), nullptr);
}

INSTANTIATE_TEST_SUITE_P(Policies, AdaptiveWorkers, ::testing::Values("fifo", "qbs", "rr", "rb"));

}  // namespace
}  // namespace cwf
