// A model's workflow units split over two sites that share only a NATS server (a nats-server child
// process). Site A has the source, the data units, the sinks and the units of the first half of
// the status attributes; site B the units of the second half. Each site has its own Broker core
// and NATS connection. The steps end in the centralized engine's snapshots, under BLM and CAM:
// with both sites driven by the test's thread, and with site B in a second process (this test
// binary started again, running only GsmWfuNatsSplit.SiteB).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "actors/gsm/wfu_nats_site.hpp"
#include "actors/pubsub/nats_server_process.hpp"
#include "gsm_test_util.hpp"
#include "tests/child_process.hpp"
#include "tests/required_dependency.hpp"
#include "wfu_test_util.hpp"

namespace cwf::gsm {
namespace {

constexpr const char* kSiteBVariable = "CWF_WFU_SITE_B";  // "<url> <prefix> <blm|cam>"

std::shared_ptr<const WfuPlan> plan_for(WfuMapping mapping) {
  return WfuPlan::build(CompiledModel::compile(testing::design_to_order()), mapping);
}

std::vector<int> units_at(const WfuPlan& plan, bool site_a) {
  std::vector<int> units;
  for (std::size_t unit = 0; unit < plan.units().size(); ++unit) {
    const WfuUnitSpec& spec = plan.units()[unit];
    const bool a = spec.kind == WfuKind::source || spec.kind == WfuKind::data ||
                   spec.kind == WfuKind::sink || spec.attribute < plan.status_count() / 2;
    if (a == site_a) units.push_back(static_cast<int>(unit));
  }
  return units;
}

// Runs site B until the parent stops it (or after a minute without work, if it never does).
void serve_site_b(const std::string& url, const std::string& prefix, WfuMapping mapping) {
  auto plan = plan_for(mapping);
  pubsub::NatsConnectionOptions options;
  options.servers = {url};
  WfuNatsSite b(plan, units_at(*plan, false), options, prefix, "b", "a");
  b.flush();
  for (int idle = 0; idle < 6000;) {
    if (b.pump() == 0) {
      ++idle;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } else {
      idle = 0;
    }
  }
}

// Drives site A (and site B, when given) until every step completed.
void run_split(const pubsub::NatsServerProcess& server, WfuMapping mapping, unsigned seed,
               bool b_in_another_process) {
  SCOPED_TRACE(std::string(wfu_mapping_name(mapping)) +
               (b_in_another_process ? ", two processes" : ", one process"));
  auto plan = plan_for(mapping);
  const auto& compiled = plan->compiled_ptr();
  pubsub::NatsConnectionOptions options;
  options.servers = {server.url()};
  const std::string prefix =
      "wfu" + std::string(wfu_mapping_name(mapping)) + (b_in_another_process ? "p" : "t");
  std::unique_ptr<WfuNatsSite> b;
  // Stopped (and killed if it does not end) when this function returns, however it returns.
  std::unique_ptr<cwf::testing::ChildProcess> child;
  if (b_in_another_process) {
    const std::string variable = std::string(kSiteBVariable) + "=" + server.url() + " " + prefix +
                                 " " + std::string(wfu_mapping_name(mapping));
    child = std::make_unique<cwf::testing::ChildProcess>(
        std::vector<std::string>{"/proc/self/exe", "--gtest_filter=GsmWfuNatsSplit.SiteB"},
        std::vector<std::string>{variable});
    ASSERT_TRUE(server.wait_for_subscriptions(prefix + ".b", 1));
  } else {
    b = std::make_unique<WfuNatsSite>(plan, units_at(*plan, false), options, prefix, "b", "a");
    ASSERT_TRUE(b->flush());
  }
  WfuNatsSite a(plan, units_at(*plan, true), options, prefix, "a", "b");
  ASSERT_TRUE(a.flush());

  const auto steps = testing::random_steps(*compiled, seed, 200, 4);
  std::vector<StepCompletion> completions;
  std::size_t submitted = 0;
  // Give up after 2,000 idle rounds of 10 ms: a lost message would otherwise hang the test.
  for (int idle = 0; completions.size() < steps.size() && idle < 2000;) {
    for (int n = 0; n < 10 && submitted < steps.size(); ++n, ++submitted)
      a.submit(steps[submitted].instance, steps[submitted].event, steps[submitted].data);
    const std::size_t work = a.pump() + (b ? b->pump() : 0);
    for (StepCompletion& c : a.take_completions())
      completions.push_back(std::move(c));
    if (work == 0) {
      ++idle;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } else {
      idle = 0;
    }
  }
  if (child) child->stop();
  EXPECT_GT(a.sent(), 0u);
  EXPECT_GT(a.received(), 0u);
  EXPECT_EQ(testing::compare_completions(
                *plan, steps, completions,
                testing::expected_snapshots(compiled, BStepEngine::Plan::reachable, steps)),
            "");
  std::cout << "[ figures  ] " << wfu_mapping_name(mapping)
            << (b_in_another_process ? " (two processes)" : " (one process)") << ": " << a.sent()
            << " messages A->B, " << a.received() << " B->A for " << steps.size() << " steps\n";
}

TEST(GsmWfuNatsSplit, TwoSitesInOneProcess) {
  CWF_REQUIRE_DEPENDENCY("nats-server", "nats-server",
                         !pubsub::NatsServerProcess::find_binary().empty());
  pubsub::NatsServerProcess server;
  run_split(server, WfuMapping::blm, 1u, false);
  run_split(server, WfuMapping::cam, 2u, false);
}

TEST(GsmWfuNatsSplit, TwoSitesInTwoProcesses) {
  CWF_REQUIRE_DEPENDENCY("nats-server", "nats-server",
                         !pubsub::NatsServerProcess::find_binary().empty());
  if (std::getenv(kSiteBVariable) != nullptr) GTEST_SKIP() << "this is site B's process";
  pubsub::NatsServerProcess server;
  run_split(server, WfuMapping::blm, 3u, true);
  run_split(server, WfuMapping::cam, 4u, true);
}

// Site B's process: does nothing unless started by TwoSitesInTwoProcesses.
TEST(GsmWfuNatsSplit, SiteB) {
  const char* spec = std::getenv(kSiteBVariable);
  if (spec == nullptr) GTEST_SKIP() << "started by TwoSitesInTwoProcesses only";
  std::istringstream in(spec);
  std::string url, prefix, mapping;
  in >> url >> prefix >> mapping;
  serve_site_b(url, prefix, parse_wfu_mapping(mapping));
}

}  // namespace
}  // namespace cwf::gsm
