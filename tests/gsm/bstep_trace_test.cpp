// The Design-to-order traces of the spec (§4), each checked by hand against Table 4.1.3 first:
// what one incoming event changes, given the instance's history.
#include <gtest/gtest.h>

#include <algorithm>

#include "actors/gsm/bstep_engine.hpp"
#include "actors/gsm/invariants.hpp"
#include "gsm_test_util.hpp"

namespace cwf::gsm {
namespace {

class DesignToOrderTrace : public ::testing::Test {
 protected:
  DesignToOrderTrace()
      : model_(CompiledModel::compile(testing::design_to_order())), engine_(model_) {
    instance_ = engine_.add_instance();
  }

  // The status changes of one step, in the order they happened ("+RA", "-RA:ap").
  std::vector<std::string> send(const std::string& event) {
    std::vector<Generated> generated;
    engine_.step(instance_, *model_->model().find_event(event), {}, generated);
    std::vector<std::string> changes;
    tasks_.clear();
    for (const Generated& g : generated) {
      if (g.kind == Generated::Kind::status)
        changes.push_back(change_text(model_->model(), {g.attribute, g.value}));
      else
        tasks_.push_back(model_->model().stages[static_cast<std::size_t>(g.attribute)].task);
    }
    EXPECT_EQ(check_invariants(model_->model(), engine_.snapshot(instance_)), "");
    return changes;
  }
  static std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  }
  std::vector<std::string> open() const {
    std::vector<std::string> names;
    for (std::size_t a = 0; a < model_->model().status_count(); ++a)
      if (engine_.status(instance_, static_cast<int>(a)))
        names.push_back(model_->model().status_name(static_cast<int>(a)));
    return names;
  }

  std::shared_ptr<const CompiledModel> model_;
  BStepEngine engine_;
  InstanceId instance_ = 0;
  std::vector<std::string> tasks_;
};

using V = std::vector<std::string>;

TEST_F(DesignToOrderTrace, NewOrderOpensRaLrAndEcr) {
  // g1 and g5 open RA and LR; g7 (not ECR:ev and LR) then sees LR open and opens ECR.
  EXPECT_EQ(send("R:NewOrder"), (V{"+RA", "+LR", "+ECR"}));
  EXPECT_EQ(sorted(tasks_), (V{"EvalCountryRestrictions", "RequirementsApproval"}));
  EXPECT_EQ(open(), (V{"RA", "LR", "ECR"}));
}

TEST_F(DesignToOrderTrace, EvalCountryRestrictionsAchievesEvAndClosesEcr) {
  send("R:NewOrder");
  EXPECT_EQ(send("T:EvalCountryRestrictions"), (V{"+ECR:ev", "-ECR"}));
  EXPECT_TRUE(tasks_.empty());
}

TEST_F(DesignToOrderTrace, RequirementsApprovalOpensEdOnceCountriesAreEvaluated) {
  send("R:NewOrder");
  send("T:EvalCountryRestrictions");
  EXPECT_EQ(sorted(send("T:RequirementsApproval")), sorted(V{"+RA:ap", "+ED", "-RA"}));
  EXPECT_EQ(tasks_, (V{"EngineeringDesign"}));
}

TEST_F(DesignToOrderTrace, RequirementsApprovalBeforeTheEvaluationLeavesEdClosed) {
  send("R:NewOrder");
  EXPECT_EQ(sorted(send("T:RequirementsApproval")), sorted(V{"+RA:ap", "-RA"}));
  // g3 is a condition-only guard: +ECR:ev reaches it, and then it holds.
  EXPECT_EQ(sorted(send("T:EvalCountryRestrictions")), sorted(V{"+ECR:ev", "-ECR", "+ED"}));
}

TEST_F(DesignToOrderTrace, EngineeringDesignCompletesEdAndOpensPe) {
  send("R:NewOrder");
  send("T:EvalCountryRestrictions");
  send("T:RequirementsApproval");
  EXPECT_EQ(sorted(send("T:EngineeringDesign")), sorted(V{"+ED:cp", "+PE", "-ED"}));
  EXPECT_EQ(tasks_, (V{"PreparingExportDocs"}));
}

TEST_F(DesignToOrderTrace, PreparingExportDocsCompletesTheLegalReview) {
  send("R:NewOrder");
  send("T:EvalCountryRestrictions");
  send("T:RequirementsApproval");
  send("T:EngineeringDesign");
  EXPECT_EQ(sorted(send("T:PreparingExportDocs")), sorted(V{"+PE:pp", "+LR:cp", "-PE", "-LR"}));
  EXPECT_EQ(sorted(open()), sorted(V{"RA:ap", "ED:cp", "ECR:ev", "PE:pp", "LR:cp"}));
}

TEST_F(DesignToOrderTrace, CustomerChangeWhileEdIsOpenSuspendsTheDesign) {
  send("R:NewOrder");
  send("T:EvalCountryRestrictions");
  send("T:RequirementsApproval");
  ASSERT_EQ(open(), (V{"ED", "LR", "RA:ap", "ECR:ev"}));
  EXPECT_EQ(sorted(send("R:CustomerChange")), sorted(V{"+RA", "-RA:ap", "+ED:sp", "-ED"}));
  EXPECT_EQ(tasks_, (V{"RequirementsApproval"}));
}

TEST_F(DesignToOrderTrace, RedoExportDocsAfterCompletionReopensTheReview) {
  send("R:NewOrder");
  send("T:EvalCountryRestrictions");
  send("T:RequirementsApproval");
  send("T:EngineeringDesign");
  send("T:PreparingExportDocs");
  EXPECT_EQ(sorted(send("R:RedoExportDocs")), sorted(V{"+LR", "+PE", "-PE:pp", "-LR:cp"}));
  // ECR stays closed: g7 needs ECR:ev false, and nothing in the model invalidates it.
  EXPECT_EQ(open(), (V{"LR", "PE", "RA:ap", "ED:cp", "ECR:ev"}));
}

TEST_F(DesignToOrderTrace, CustomerChangeAfterCompletionWithdrawsTheDesignAndTheExportDocs) {
  send("R:NewOrder");
  send("T:EvalCountryRestrictions");
  send("T:RequirementsApproval");
  send("T:EngineeringDesign");
  send("T:PreparingExportDocs");
  // -RA:ap invalidates ED:cp (its invalidating sentry), which invalidates PE:pp and so LR:cp;
  // ED and PE are closed, so their suspension milestones are not achieved.
  EXPECT_EQ(send("R:CustomerChange"), (V{"+RA", "-RA:ap", "-ED:cp", "-PE:pp", "-LR:cp"}));
}

TEST_F(DesignToOrderTrace, ChangesComeInDependencyGraphOrder) {
  send("R:NewOrder");
  send("T:EvalCountryRestrictions");
  send("T:RequirementsApproval");
  send("T:EngineeringDesign");
  // +PE:pp before +LR:cp (edge), +LR:cp before -LR (edge), -LR before... -PE was already set.
  V changes = send("T:PreparingExportDocs");
  auto at = [&](const std::string& c) {
    return std::find(changes.begin(), changes.end(), c) - changes.begin();
  };
  EXPECT_LT(at("+PE:pp"), at("+LR:cp"));
  EXPECT_LT(at("+LR:cp"), at("-LR"));
  EXPECT_LT(at("+PE:pp"), at("-PE"));
}

TEST_F(DesignToOrderTrace, EventDataIsAppliedBeforeTheRules) {
  std::vector<Generated> generated;
  const Model& m = model_->model();
  std::vector<DataUpdate> data{{*m.find_data("customer"), Value("acme")}};
  engine_.step(instance_, *m.find_event("R:NewOrder"), data, generated);
  EXPECT_EQ(engine_.data(instance_, *m.find_data("customer")), Value("acme"));
  EXPECT_EQ(engine_.latest_event(instance_), *m.find_event("R:NewOrder"));
}

}  // namespace
}  // namespace cwf::gsm
