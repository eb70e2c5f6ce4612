// Loading models: the sentry forms, how names resolve, and the errors for bad input (file:line,
// what was expected).
#include <gtest/gtest.h>

#include "actors/gsm/bstep_engine.hpp"
#include "gsm_test_util.hpp"

namespace cwf::gsm {
namespace {

using testing::load_error;

TEST(GsmModelLoader, SentryFormsAndNames) {
  Model model = load_model_text(R"(artifact: claim
data: {amount: int, note: string}
stages:
  Review:
    guards:
      - on R:Submit if /amount > 1000
      - on R:Escalate
    milestones:
      ok: {achieved: on T:Review, invalidated: if /note == "reopen"}
  Pay:
    guards: {fast: "if Review:ok and not Pay:paid"}
    milestones:
      paid: on T:Pay
)",
                                "claim.yaml");
  ASSERT_EQ(model.stages.size(), 2u);
  const Stage& review = model.stages[0];
  EXPECT_EQ(review.task, "Review");  // an atomic stage without `task` runs the task of its name
  EXPECT_EQ(review.guards[0].name, "Review.g1");
  EXPECT_EQ(review.guards[0].sentry.trigger.kind, Trigger::Kind::external);
  EXPECT_EQ(model.events[static_cast<std::size_t>(review.guards[0].sentry.trigger.event)].name,
            "R:Submit");
  const ConditionInfo& amount =
      model.conditions[static_cast<std::size_t>(review.guards[0].sentry.condition)];
  EXPECT_EQ(amount.data_read, (std::vector<int>{0}));
  EXPECT_FALSE(amount.literals.has_value());
  const Guard& fast = model.stages[1].guards[0];
  EXPECT_EQ(fast.name, "fast");
  EXPECT_EQ(fast.sentry.trigger.kind, Trigger::Kind::none);
  const ConditionInfo& literals = model.conditions[static_cast<std::size_t>(fast.sentry.condition)];
  EXPECT_EQ(literals.expression, "Review_ok and not Pay_paid");
  ASSERT_TRUE(literals.literals.has_value());
  EXPECT_EQ(*literals.literals,
            (std::vector<StatusLiteral>{{*model.find_status("Review:ok"), true},
                                        {*model.find_status("Pay:paid"), false}}));
  EXPECT_EQ(literals.negated_conjuncts, (std::vector<int>{*model.find_status("Pay:paid")}));
  // Pay:paid in Pay's own guard makes one vacuous reopening rule.
  EXPECT_EQ(derive_rules(model).vacuous_omitted, 1u);
}

TEST(GsmModelLoader, ErrorsNameTheLineAndWhatWasExpected) {
  EXPECT_EQ(load_error(""),
            "m.yaml:1:1: the model file is empty (expected a map with 'artifact' and 'stages')");
  EXPECT_EQ(load_error("artifact: x\nstage: {}\n"),
            "m.yaml:2:1: unknown model key 'stage' (expected one of: artifact, description, data, "
            "events, stages); did you mean 'stages'?");
  EXPECT_EQ(load_error("artifact: x\nstages:\n  A:\n    milestones: {m: on T:A}\n"),
            "m.yaml:3:3: stage 'A' has no 'guards' (a stage needs at least one)");
  EXPECT_EQ(load_error("stages:\n  A:\n    guards: [on R:Go]\n"),
            "m.yaml:2:3: stage 'A' has no 'milestones' (a stage owns at least one)");
  EXPECT_EQ(load_error("stages:\n  A:\n    guards: [when R:Go]\n    milestones: {m: on T:A}\n"),
            "m.yaml:3:14: cannot read sentry 'when R:Go' (expected 'on EVENT', 'on EVENT if "
            "CONDITION' or 'if CONDITION' for guard A.g1 of A)");
  EXPECT_EQ(load_error("stages:\n  A:\n    guards: [on +Nope]\n    milestones: {m: on T:A}\n"),
            "m.yaml:3:14: unknown status attribute 'Nope' in the event '+Nope' of guard A.g1 of A "
            "(expected +STAGE, -STAGE, +STAGE:milestone or -STAGE:milestone)");
  EXPECT_EQ(
      load_error("stages:\n  A:\n    guards: [on R:Go if /x >]\n    milestones: {m: on T:A}\n"),
      "m.yaml:3:14: in the condition of guard A.g1 of A ('/x >'): column 5: expected an "
      "expression but found end of expression");
  EXPECT_EQ(load_error("data: {n: integer}\nstages: {}\n"),
            "m.yaml:1:11: unknown data type 'integer' for 'n' (expected string, int, double, bool "
            "or any)");
  EXPECT_EQ(load_error("events: {R:Go: {}}\nstages:\n  A:\n    guards: [on R:Og]\n"
                       "    milestones: {m: on T:A}\n"),
            "m.yaml:4:14: unknown event type 'R:Og' in guard A.g1 of A (the model's 'events' "
            "section does not list it); did you mean 'R:Go'?");
  EXPECT_EQ(
      load_error("stages:\n  A:\n    task: t\n    guards: [on R:Go]\n    milestones: {m: on T:A}\n"
                 "    stages:\n      B: {guards: [on R:Go], milestones: {m: on T:B}}\n"),
      "m.yaml:2:3: stage 'A' has both a task and substages (only atomic stages hold a task)");
  EXPECT_EQ(load_error("stages:\n  A:\n    guards: [on R:Go]\n    milestones: {m: on T:A}\n  A:\n"),
            "m.yaml:5:3: duplicate key 'A' (first at 2:3)");
}

TEST(GsmModelLoader, DataConditionsAreEvaluatedOnTheUpdatedData) {
  auto compiled = CompiledModel::compile(load_model_text(R"(artifact: claim
data: {amount: int}
events:
  R:Submit: {creates: true, updates: [amount]}
  R:Ping: {updates: []}
  T:Review: {}
  T:Large: {}
stages:
  Review:
    guards: [on R:Submit if /amount > 1000]
    milestones: {ok: on T:Review}
  Large:
    guards: [if /amount > 5000 and /latestIncEvent == "R:Submit"]
    milestones: {seen: on T:Large}
)",
                                                         "claim.yaml"));
  const Model& m = compiled->model();
  ASSERT_TRUE(m.events_declared);
  EXPECT_TRUE(m.may_create(*m.find_event("R:Submit")));
  EXPECT_FALSE(m.may_create(*m.find_event("R:Ping")));
  BStepEngine engine(compiled);
  InstanceId x = engine.add_instance(), y = engine.add_instance();
  std::vector<Generated> out;
  std::vector<DataUpdate> small{{0, Value(10)}}, large{{0, Value(9000)}};
  engine.step(x, *m.find_event("R:Submit"), small, out);
  EXPECT_TRUE(out.empty());
  engine.step(y, *m.find_event("R:Submit"), large, out);
  EXPECT_TRUE(engine.status(y, *m.find_status("Review")));
  EXPECT_TRUE(engine.status(y, *m.find_status("Large")));
  // R:Ping updates no data, but every event changes latestIncEvent, which Large's guard reads.
  const auto& ping = compiled->plan(*m.find_event("R:Ping"));
  EXPECT_EQ(ping.size(), 2u);  // Large's guard and its reopening rule
  EXPECT_EQ(engine.condition_errors(), 0u);
}

TEST(GsmModelLoader, SuperRulesMergeRulesWithTheSamePrerequisiteAndConsequent) {
  auto compiled = CompiledModel::compile(testing::design_to_order());
  // Table 4.1.4: the three rules with π PE:pp and γ -PE:pp are one super rule.
  const Model& m = compiled->model();
  std::size_t found = 0;
  for (const SuperRule& s : compiled->super_rules()) {
    if (s.prerequisite == StatusLiteral{*m.find_status("PE:pp"), true} &&
        s.consequent == StatusLiteral{*m.find_status("PE:pp"), false}) {
      ++found;
      std::vector<std::string> disjuncts;
      for (int r : s.rules)
        disjuncts.push_back(
            antecedent_text(m, compiled->rules().rules[static_cast<std::size_t>(r)]));
      EXPECT_EQ(disjuncts, (std::vector<std::string>{"on -ED:cp", "on +ED:cp and LR",
                                                     "on R:RedoExportDocs and LR"}));
    }
  }
  EXPECT_EQ(found, 1u);
  EXPECT_EQ(compiled->super_rules().size(), 23u);
}

}  // namespace
}  // namespace cwf::gsm
