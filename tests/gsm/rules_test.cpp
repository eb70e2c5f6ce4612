// PAC rule derivation and the dependency graph of Design-to-order against 000 Table 4.1.3.
#include <gtest/gtest.h>

#include <algorithm>

#include "actors/gsm/dependency_graph.hpp"
#include "actors/gsm/pac_rules.hpp"
#include "gsm_test_util.hpp"

namespace cwf::gsm {
namespace {

using testing::design_to_order;

TEST(GsmRules, DesignToOrderHasTwelveStatusAttributes) {
  Model model = design_to_order();
  EXPECT_EQ(model.status_count(), 12u);
  EXPECT_EQ(model.stages.size(), 5u);
  EXPECT_EQ(model.milestones.size(), 7u);
  EXPECT_EQ(model.data.size(), 3u);
  EXPECT_EQ(model.events.size(), 8u);
  EXPECT_EQ(model.stages[*model.find_status("ECR")].parent, *model.find_status("LR"));
}

TEST(GsmRules, DesignToOrderKeepingVacuousRulesGivesThe41OfTheTable) {
  Model model = design_to_order();
  RuleSet set = derive_rules(model, {.keep_vacuous = true});
  EXPECT_EQ(set.rules.size(), 41u);
  EXPECT_EQ(set.count(RuleTemplate::guard_opens_stage), 9u);
  EXPECT_EQ(set.count(RuleTemplate::milestone_achieved), 7u);
  EXPECT_EQ(set.count(RuleTemplate::milestone_invalidated), 3u);
  EXPECT_EQ(set.count(RuleTemplate::reopening_invalidates), 13u);
  EXPECT_EQ(set.count(RuleTemplate::milestone_closes_stage), 7u);
  EXPECT_EQ(set.count(RuleTemplate::parent_closes_child), 2u);
  EXPECT_EQ(set.vacuous_omitted, 0u);
  // The two vacuous ones are Table 4.1.3's rules 22 (g3, ED:cp) and 28 (g7, ECR:ev).
  std::vector<std::string> vacuous;
  for (const PacRule& r : set.rules)
    if (r.vacuous)
      vacuous.push_back(change_text(model, r.consequent) + " " + rule_origin(model, r));
  EXPECT_EQ(vacuous, (std::vector<std::string>{"-ED:cp guard g3 of ED, vacuous",
                                               "-ECR:ev guard g7 of ECR, vacuous"}));
}

TEST(GsmRules, DesignToOrderOmitsTheTwoVacuousRulesByDefault) {
  Model model = design_to_order();
  RuleSet set = derive_rules(model);
  EXPECT_EQ(set.rules.size(), 39u);
  EXPECT_EQ(set.count(RuleTemplate::reopening_invalidates), 11u);
  EXPECT_EQ(set.vacuous_omitted, 2u);
}

// Every rule of Table 4.1.3 (with R:ResumeDesign as in Table 4.1.1), as π | α | γ.
TEST(GsmRules, DesignToOrderRulesMatchTable413) {
  Model model = design_to_order();
  RuleSet set = derive_rules(model, {.keep_vacuous = true});
  std::vector<std::string> rows;
  for (const PacRule& r : set.rules)
    rows.push_back(literal_text(model, r.prerequisite) + " | " + antecedent_text(model, r) + " | " +
                   change_text(model, r.consequent));
  std::vector<std::string> expected = {
      "not RA | on R:NewOrder | +RA",
      "not RA | on R:CustomerChange | +RA",
      "not ED | RA:ap and ECR:ev and not ED:cp | +ED",
      "not ED | on R:ResumeDesign | +ED",
      "not LR | on R:NewOrder | +LR",
      "not LR | on R:RedoExportDocs | +LR",
      "not ECR | not ECR:ev and LR | +ECR",
      "not PE | on +ED:cp and LR | +PE",
      "not PE | on R:RedoExportDocs and LR | +PE",
      "RA | on T:RequirementsApproval | +RA:ap",
      "ED | on T:EngineeringDesign | +ED:cp",
      "ED | on -RA:ap | +ED:sp",
      "ECR | on T:EvalCountryRestrictions | +ECR:ev",
      "PE | on T:PreparingExportDocs | +PE:pp",
      "PE | on -ED:cp | +PE:sp",
      "LR | on +PE:pp | +LR:cp",
      "ED:cp | on -RA:ap | -ED:cp",
      "PE:pp | on -ED:cp | -PE:pp",
      "LR:cp | on -PE:pp | -LR:cp",
      "RA:ap | on R:NewOrder | -RA:ap",
      "RA:ap | on R:CustomerChange | -RA:ap",
      "ED:cp | RA:ap and ECR:ev and not ED:cp | -ED:cp",
      "ED:sp | RA:ap and ECR:ev and not ED:cp | -ED:sp",
      "ED:cp | on R:ResumeDesign | -ED:cp",
      "ED:sp | on R:ResumeDesign | -ED:sp",
      "LR:cp | on R:NewOrder | -LR:cp",
      "LR:cp | on R:RedoExportDocs | -LR:cp",
      "ECR:ev | not ECR:ev and LR | -ECR:ev",
      "PE:pp | on +ED:cp and LR | -PE:pp",
      "PE:sp | on +ED:cp and LR | -PE:sp",
      "PE:pp | on R:RedoExportDocs and LR | -PE:pp",
      "PE:sp | on R:RedoExportDocs and LR | -PE:sp",
      "RA | on +RA:ap | -RA",
      "ED | on +ED:cp | -ED",
      "ED | on +ED:sp | -ED",
      "LR | on +LR:cp | -LR",
      "ECR | on +ECR:ev | -ECR",
      "PE | on +PE:pp | -PE",
      "PE | on +PE:sp | -PE",
      "ECR | on -LR | -ECR",
      "PE | on -LR | -PE",
  };
  // Grouped by template as in the table; within a template the order of the model file.
  std::sort(rows.begin(), rows.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(rows, expected);
}

TEST(GsmGraph, DesignToOrderIsAcyclicWithTheExpectedEdges) {
  Model model = design_to_order();
  RuleSet set = derive_rules(model, {.keep_vacuous = true});
  DependencyGraph graph = DependencyGraph::build(model, set);
  EXPECT_EQ(graph.node_count(), 24u);
  std::vector<std::string> edges;
  for (const PdgEdge& e : graph.edges())
    edges.push_back(node_name(model, e.from) + ">" + node_name(model, e.to));
  std::sort(edges.begin(), edges.end());
  auto has = [&](const std::string& e) {
    return std::binary_search(edges.begin(), edges.end(), e);
  };
  EXPECT_TRUE(has("+ED:cp>+PE"));
  EXPECT_TRUE(has("-RA:ap>-ED:cp"));
  EXPECT_TRUE(has("-RA:ap>+ED:sp"));
  EXPECT_TRUE(has("+PE:pp>+LR:cp"));
  EXPECT_TRUE(has("+LR:cp>-LR"));
  EXPECT_TRUE(has("-LR>-PE"));
  EXPECT_TRUE(has("+LR>+ECR"));
  EXPECT_TRUE(has("-LR>+ECR"));
  // The vacuous rules add no self-loops.
  EXPECT_FALSE(has("-ED:cp>-ED:cp"));
  EXPECT_FALSE(has("-ECR:ev>-ECR:ev"));
  // Every edge goes to a later stratum.
  for (const PdgEdge& e : graph.edges())
    EXPECT_LT(graph.stratum(e.from), graph.stratum(e.to));
  // The longest chain: +RA:ap -> +ED ... e.g. -RA:ap -> -ED:cp -> -PE:pp -> -LR:cp.
  EXPECT_LT(graph.stratum(pdg_node({*model.find_status("ED:cp"), false})),
            graph.stratum(pdg_node({*model.find_status("LR:cp"), false})));
}

TEST(GsmGraph, ACycleIsRejectedNamingIt) {
  Model model = load_model_text(R"(artifact: loop
stages:
  A:
    guards: [if not B]
    milestones:
      done: on T:A
  B:
    guards: [on +A]
    milestones:
      done: on T:B
)",
                                "loop.yaml");
  RuleSet set = derive_rules(model);
  try {
    DependencyGraph::build(model, set);
    FAIL() << "expected a cycle";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()),
              "loop.yaml:8:14: the polarized dependency graph has a cycle: +A -> +B -> +A "
              "(+A -> +B by guard B.g1 of B; +B -> +A by guard A.g1 of A); a B-step could not "
              "order these rules");
  }
}

}  // namespace
}  // namespace cwf::gsm
