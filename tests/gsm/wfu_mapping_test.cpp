// The mapping of a model onto workflow units: unit counts of BLM and CAM, which units take part
// in which steps, and the subscriptions that wire them.
#include <gtest/gtest.h>

#include "actors/gsm/model_loader.hpp"
#include "actors/gsm/synthetic_models.hpp"
#include "actors/gsm/wfu_mapping.hpp"
#include "actors/gsm/wfu_messages.hpp"
#include "gsm_test_util.hpp"

namespace cwf::gsm {
namespace {

std::size_t blm_units(const Model& m) {
  return 3 * m.status_count() + (m.data.size() + 1) + 2;
}
std::size_t cam_units(const Model& m) {
  return 3 * m.status_count() + (m.data.size() + 1) + 1 + m.events.size();
}

TEST(GsmWfuMapping, UnitCountsPerModel) {
  std::vector<std::shared_ptr<const CompiledModel>> models{
      CompiledModel::compile(testing::design_to_order())};
  for (int k : {2, 4, 10})
    models.push_back(CompiledModel::compile(load_model_text(sequence_model_yaml(k), "s.yaml")));
  for (int n : {3, 9})
    models.push_back(CompiledModel::compile(load_model_text(split_model_yaml(n), "p.yaml")));
  for (const auto& compiled : models) {
    const Model& m = compiled->model();
    SCOPED_TRACE(m.name);
    EXPECT_EQ(WfuPlan::build(compiled, WfuMapping::blm)->units().size(), blm_units(m));
    EXPECT_EQ(WfuPlan::build(compiled, WfuMapping::cam)->units().size(), cam_units(m));
  }
  // Design-to-order: 12 status attributes, 3 data attributes and latestIncEvent, 8 event types.
  EXPECT_EQ(blm_units(models[0]->model()), 42u);
  EXPECT_EQ(cam_units(models[0]->model()), 49u);
}

TEST(GsmWfuMapping, BlmTakesEveryUnitCamOnlyTheEpdg) {
  auto compiled = CompiledModel::compile(testing::design_to_order());
  const Model& m = compiled->model();
  auto blm = WfuPlan::build(compiled, WfuMapping::blm);
  auto cam = WfuPlan::build(compiled, WfuMapping::cam);
  const int units = static_cast<int>(blm->units().size());
  for (int e = 0; e < static_cast<int>(m.events.size()); ++e) {
    EXPECT_EQ(blm->expected_visited(e), units - 2);
    EXPECT_LT(cam->expected_visited(e), blm->expected_visited(e));
  }
  const int eval = *m.find_event("T:EvalCountryRestrictions");
  const int ecr_ev = *m.find_status("ECR:ev"), ecr = *m.find_status("ECR");
  const int ra = *m.find_status("RA");
  // EvalCountryRestrictions achieves ECR:ev, closes ECR, may open ED: it cannot touch RA.
  EXPECT_TRUE(cam->takes_part(eval, cam->rule_unit(ecr_ev, true)));
  EXPECT_TRUE(cam->takes_part(eval, cam->rule_unit(ecr, false)));
  EXPECT_TRUE(cam->takes_part(eval, cam->gateway(ecr_ev)));
  EXPECT_FALSE(cam->takes_part(eval, cam->rule_unit(ra, true)));
  EXPECT_FALSE(cam->takes_part(eval, cam->gateway(ra)));
  // Its data units: latestIncEvent only (it updates nothing else).
  for (int d = 0; d < cam->data_count(); ++d)
    EXPECT_EQ(cam->takes_part(eval, cam->data_unit(d)), d == cam->latest_event_data());
  // One sink per event type under CAM, each completing only its own.
  EXPECT_TRUE(cam->takes_part(eval, cam->sink(eval)));
  EXPECT_FALSE(cam->takes_part(eval, cam->sink(eval == 0 ? 1 : 0)));
}

TEST(GsmWfuMapping, SubscriptionsWireReadersToOwners) {
  auto compiled = CompiledModel::compile(testing::design_to_order());
  const Model& m = compiled->model();
  auto plan = WfuPlan::build(compiled, WfuMapping::cam);
  const int ed = *m.find_status("ED");
  const WfuUnitSpec& plus_ed = plan->units()[static_cast<std::size_t>(plan->rule_unit(ed, true))];
  // g3 = if RA:ap and ECR:ev and not ED:cp: +ED reads those gateways (and ED's own).
  for (const char* name : {"RA:ap", "ECR:ev", "ED:cp", "ED"}) {
    const int gateway = plan->gateway(*m.find_status(name));
    EXPECT_NE(std::find(plus_ed.reads_values.begin(), plus_ed.reads_values.end(), gateway),
              plus_ed.reads_values.end())
        << name;
  }
  // +PE is triggered by +ED:cp: it subscribes to that rule unit's toggles.
  const WfuUnitSpec& plus_pe =
      plan->units()[static_cast<std::size_t>(plan->rule_unit(*m.find_status("PE"), true))];
  const int plus_ed_cp = plan->rule_unit(*m.find_status("ED:cp"), true);
  EXPECT_EQ(plus_pe.reads_toggles, std::vector<int>{plus_ed_cp});
  bool matched = false;
  const Value toggle = wfu::make_message(wfu::kToggle, plus_ed_cp, 0, 1, 0, Value(true));
  for (const pubsub::Filter& f : plus_pe.subscriptions)
    matched = matched || f.matches(toggle);
  EXPECT_TRUE(matched);
  EXPECT_THROW(parse_wfu_mapping("both"), std::invalid_argument);
  EXPECT_EQ(parse_wfu_mapping("cam"), WfuMapping::cam);
}

}  // namespace
}  // namespace cwf::gsm
