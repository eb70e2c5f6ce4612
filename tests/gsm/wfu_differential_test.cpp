// The core test of GSM over publish/subscribe: random event sequences (fixed seeds) over
// Design-to-order, a data-carrying model and the synthetic models, several instances
// interleaved, run through the workflow units with deliveries interleaved at random (FIFO per
// link), end every step in the snapshot the centralized BStepEngine computes. BLM is compared
// with the engine evaluating every rule, CAM with the engine evaluating the event's ePDG (on these
// models the two engines agree, which the test checks too).
#include <gtest/gtest.h>

#include <iostream>

#include "actors/gsm/model_loader.hpp"
#include "actors/gsm/synthetic_models.hpp"
#include "actors/gsm/wfu_network.hpp"
#include "gsm_test_util.hpp"
#include "tests/sanitizer_build.hpp"
#include "wfu_test_util.hpp"

namespace cwf::gsm {
namespace {

using testing::WfuStep;

struct RunFigures {
  double publications_per_step = 0;
  double deliveries_per_step = 0;
};

// Submits the steps one by one, delivering a random number of publications in between (so that
// up to dozens of steps of different instances are in flight), then drains the network.
RunFigures run_and_compare(std::shared_ptr<const CompiledModel> compiled, WfuMapping mapping,
                           const std::vector<WfuStep>& steps, unsigned seed) {
  auto plan = WfuPlan::build(compiled, mapping);
  const auto expected = testing::expected_snapshots(
      compiled,
      mapping == WfuMapping::blm ? BStepEngine::Plan::all_rules : BStepEngine::Plan::reachable,
      steps);
  WfuNetwork network(plan, seed);
  std::mt19937 random(seed * 31 + 7);
  std::uniform_int_distribution<int> burst(0, 60);
  for (const WfuStep& step : steps) {
    network.submit(step.instance, step.event, step.data);
    for (int n = burst(random); n > 0 && network.deliver_one(); --n) {
    }
  }
  network.run();
  EXPECT_EQ(network.pending_rows(), 0u);
  EXPECT_EQ(network.double_toggles(), 0u);
  EXPECT_EQ(network.condition_errors(), 0u);
  EXPECT_EQ(network.completed(), steps.size());
  EXPECT_EQ(testing::compare_completions(*plan, steps, network.take_completions(), expected), "");
  const auto n = static_cast<double>(steps.size());
  return {static_cast<double>(network.publications()) / n,
          static_cast<double>(network.deliveries()) / n};
}

void differential(const std::string& label, std::shared_ptr<const CompiledModel> compiled,
                  unsigned seed, int steps, int instances, bool print_figures = true) {
  SCOPED_TRACE(label + " seed " + std::to_string(seed));
  const auto sequence = testing::random_steps(*compiled, seed, steps, instances);
  // The two centralized plans agree on these models, so BLM and CAM are compared with one result.
  ASSERT_EQ(testing::expected_snapshots(compiled, BStepEngine::Plan::all_rules, sequence),
            testing::expected_snapshots(compiled, BStepEngine::Plan::reachable, sequence));
  const RunFigures blm = run_and_compare(compiled, WfuMapping::blm, sequence, seed);
  const RunFigures cam = run_and_compare(compiled, WfuMapping::cam, sequence, seed + 1000);
  // BLM: every unit publishes in every step. The source: the event and every data attribute;
  // each rule unit a toggle and visited, each gateway and data unit a value and visited.
  const auto& model = compiled->model();
  const double blm_publications = 1.0 + 3.0 * static_cast<double>(model.data.size() + 1) +
                                  6.0 * static_cast<double>(model.status_count());
  EXPECT_DOUBLE_EQ(blm.publications_per_step, blm_publications);
  EXPECT_LT(cam.publications_per_step, blm.publications_per_step);
  EXPECT_LT(cam.deliveries_per_step, blm.deliveries_per_step);
  if (!print_figures) return;
  std::cout << "[ figures  ] " << label << " seed " << seed << ": BLM " << blm.publications_per_step
            << " publications / " << blm.deliveries_per_step << " deliveries per B-step, CAM "
            << cam.publications_per_step << " / " << cam.deliveries_per_step << "\n";
}

std::shared_ptr<const CompiledModel> model_text(const std::string& yaml) {
  return CompiledModel::compile(load_model_text(yaml, "model.yaml"));
}

TEST(GsmWfuDifferential, DesignToOrder) {
  auto compiled = CompiledModel::compile(testing::design_to_order());
  // One seed under the sanitizers (a seed takes 10 s there).
  for (unsigned seed = 1; seed <= (cwf::testing::kSanitizerBuild ? 1u : 4u); ++seed)
    differential("design_to_order", compiled, seed, 600, 6);
}

TEST(GsmWfuDifferential, Sequences) {
  for (int k : {2, 4, 10})
    differential(std::to_string(k) + "-stage sequence", model_text(sequence_model_yaml(k)), 5u, 400,
                 4);
}

TEST(GsmWfuDifferential, Splits) {
  for (int n : {3, 9})
    differential("1-in-" + std::to_string(n) + " split", model_text(split_model_yaml(n)), 9u, 400,
                 4);
}

TEST(GsmWfuDifferential, DataConditions) {
  // Data conditions, latestIncEvent, data units.
  auto compiled = CompiledModel::compile(testing::claim_model());
  for (unsigned seed : {21u, 22u})
    differential("claim", compiled, seed, 600, 5);
}

TEST(GsmWfuDifferential, ManySeedsShortSequences) {
  // Many short runs: different interleavings of the first steps of new instances.
  auto compiled = CompiledModel::compile(testing::design_to_order());
  auto sequence = CompiledModel::compile(load_model_text(sequence_model_yaml(4), "s.yaml"));
  const unsigned seeds = cwf::testing::kSanitizerBuild ? 5 : 30;
  for (unsigned seed = 100; seed < 100 + seeds; ++seed) {
    differential("design_to_order", compiled, seed, 80, 3, false);
    differential("4-stage sequence", sequence, seed, 60, 2, false);
  }
}

TEST(GsmWfuDifferential, OneInstanceManyStepsInFlight) {
  // Every step of one instance submitted before any delivery: the pseudo-clock alone keeps them
  // in order at every unit.
  auto compiled = CompiledModel::compile(testing::design_to_order());
  const auto steps = testing::random_steps(*compiled, 8u, 300, 1);
  for (WfuMapping mapping : {WfuMapping::blm, WfuMapping::cam}) {
    auto plan = WfuPlan::build(compiled, mapping);
    WfuNetwork network(plan, 77u);
    for (const WfuStep& step : steps)
      network.submit(step.instance, step.event, step.data);
    network.run();
    EXPECT_EQ(testing::compare_completions(
                  *plan, steps, network.take_completions(),
                  testing::expected_snapshots(compiled, BStepEngine::Plan::reachable, steps)),
              "");
  }
}

TEST(GsmWfuDifferential, AMutatedUnitIsCaught) {
  // The comparison can fail: dropping the toggles of one rule unit (+ED:cp never reaches
  // anyone) is a mapping error the differential check must report.
  auto compiled = CompiledModel::compile(testing::design_to_order());
  const auto steps = testing::random_steps(*compiled, 3u, 300, 3);
  auto plan = WfuPlan::build(compiled, WfuMapping::cam);
  auto broken = std::make_shared<WfuPlan>(*plan);
  const auto ed_cp = *compiled->model().find_status("ED:cp");
  // Replace +ED:cp's super rule by none: it now always publishes a no-change.
  const_cast<WfuUnitSpec&>(
      broken->units()[static_cast<std::size_t>(broken->rule_unit(ed_cp, true))])
      .super_rule = -1;
  WfuNetwork network(broken, 5u);
  for (const WfuStep& step : steps)
    network.submit(step.instance, step.event, step.data);
  network.run();
  EXPECT_NE(testing::compare_completions(
                *broken, steps, network.take_completions(),
                testing::expected_snapshots(compiled, BStepEngine::Plan::reachable, steps)),
            "");
}

}  // namespace
}  // namespace cwf::gsm
