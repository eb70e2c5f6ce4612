// The gsm actor in YAML workflows: the shipped Design-to-order events through the model, and the
// errors a bad event or a bad parameter gives.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gsm_test_util.hpp"
#include "gsm_workflow_util.hpp"

namespace cwf::gsm {
namespace {

using testing::source_path;

std::string temp(const std::string& name) {
  return ::testing::TempDir() + "cwf_gsm_" +
         ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name;
}

// Runs events (JSON lines) through a gsm actor with the given extra parameters; returns the
// output lines and the actor's error count.
std::pair<std::vector<std::string>, std::uint64_t> run(const std::string& events,
                                                       const std::string& parameters = "") {
  const std::string in = temp("events.jsonl");
  std::ofstream(in) << events;
  const std::string out = temp("out.jsonl");
  RunSummary summary = testing::run_between_jsonl(
      "type: gsm, model: " + source_path("workflows/gsm/design_to_order.yaml") + parameters, in,
      out);
  std::uint64_t errors = 0;
  for (const auto& a : summary.actors)
    if (a.name == "orders") errors = a.rejected + a.failed;
  return {testing::read_lines(out), errors};
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(GsmActor, ShippedEventsGiveTheStepsOfBothOrders) {
  auto [out, errors] = run(read(source_path("workflows/gsm/data/design_to_order_events.jsonl")));
  EXPECT_EQ(errors, 1u);  // order-3 was never created by an R:NewOrder
  const std::vector<std::string> expected = {
      R"({"instance":"order-1","step":1,"event":"R:NewOrder","type":"status","change":"+RA"})",
      R"({"instance":"order-1","step":1,"event":"R:NewOrder","type":"invoke","task":"RequirementsApproval","stage":"RA"})",
      R"({"instance":"order-1","step":1,"event":"R:NewOrder","type":"status","change":"+LR"})",
      R"({"instance":"order-1","step":1,"event":"R:NewOrder","type":"status","change":"+ECR"})",
      R"({"instance":"order-1","step":1,"event":"R:NewOrder","type":"invoke","task":"EvalCountryRestrictions","stage":"ECR"})",
      R"({"instance":"order-2","step":2,"event":"R:NewOrder","type":"status","change":"+RA"})",
      R"({"instance":"order-2","step":2,"event":"R:NewOrder","type":"invoke","task":"RequirementsApproval","stage":"RA"})",
      R"({"instance":"order-2","step":2,"event":"R:NewOrder","type":"status","change":"+LR"})",
      R"({"instance":"order-2","step":2,"event":"R:NewOrder","type":"status","change":"+ECR"})",
      R"({"instance":"order-2","step":2,"event":"R:NewOrder","type":"invoke","task":"EvalCountryRestrictions","stage":"ECR"})",
      R"({"instance":"order-1","step":3,"event":"T:EvalCountryRestrictions","type":"status","change":"+ECR:ev"})",
      R"({"instance":"order-1","step":3,"event":"T:EvalCountryRestrictions","type":"status","change":"-ECR"})",
      R"({"instance":"order-1","step":4,"event":"T:RequirementsApproval","type":"status","change":"+RA:ap"})",
      R"({"instance":"order-1","step":4,"event":"T:RequirementsApproval","type":"status","change":"-RA"})",
      R"({"instance":"order-1","step":4,"event":"T:RequirementsApproval","type":"status","change":"+ED"})",
      R"({"instance":"order-1","step":4,"event":"T:RequirementsApproval","type":"invoke","task":"EngineeringDesign","stage":"ED"})",
      // order-2's countries are not evaluated yet: g3 does not hold, ED stays closed.
      R"({"instance":"order-2","step":5,"event":"T:RequirementsApproval","type":"status","change":"+RA:ap"})",
      R"({"instance":"order-2","step":5,"event":"T:RequirementsApproval","type":"status","change":"-RA"})",
      R"({"instance":"order-1","step":6,"event":"T:EngineeringDesign","type":"status","change":"+ED:cp"})",
      R"({"instance":"order-1","step":6,"event":"T:EngineeringDesign","type":"status","change":"-ED"})",
      R"({"instance":"order-1","step":6,"event":"T:EngineeringDesign","type":"status","change":"+PE"})",
      R"({"instance":"order-1","step":6,"event":"T:EngineeringDesign","type":"invoke","task":"PreparingExportDocs","stage":"PE"})",
      // ED was never open for order-2: the change reopens RA and withdraws the approval only.
      R"({"instance":"order-2","step":7,"event":"R:CustomerChange","type":"status","change":"+RA"})",
      R"({"instance":"order-2","step":7,"event":"R:CustomerChange","type":"invoke","task":"RequirementsApproval","stage":"RA"})",
      R"({"instance":"order-2","step":7,"event":"R:CustomerChange","type":"status","change":"-RA:ap"})",
      R"({"instance":"order-1","step":8,"event":"T:PreparingExportDocs","type":"status","change":"+PE:pp"})",
      R"({"instance":"order-1","step":8,"event":"T:PreparingExportDocs","type":"status","change":"+LR:cp"})",
      R"({"instance":"order-1","step":8,"event":"T:PreparingExportDocs","type":"status","change":"-LR"})",
      // -PE sits after -LR in the graph (the edge -LR -> -PE of the parent-closes-child rule).
      R"({"instance":"order-1","step":8,"event":"T:PreparingExportDocs","type":"status","change":"-PE"})",
  };
  EXPECT_EQ(out, expected);
}

TEST(GsmActor, EmitTasksOnly) {
  auto [out, errors] = run(R"({"instance": 7, "type": "R:NewOrder"})"
                           "\n",
                           ", emit: tasks");
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(
      out,
      (std::vector<std::string>{
          R"({"instance":7,"step":1,"event":"R:NewOrder","type":"invoke","task":"RequirementsApproval","stage":"RA"})",
          R"({"instance":7,"step":1,"event":"R:NewOrder","type":"invoke","task":"EvalCountryRestrictions","stage":"ECR"})"}));
}

TEST(GsmActor, BadEventsAreCountedAndDropped) {
  auto [out, errors] = run(R"({"instance": "a", "type": "R:NoSuchEvent"})"
                           "\n"
                           R"({"type": "R:NewOrder"})"
                           "\n"
                           R"({"instance": "a", "type": "R:NewOrder", "data": {"colour": "red"}})"
                           "\n"
                           R"({"instance": "a", "type": "R:NewOrder", "data": {"customer": 5}})"
                           "\n"
                           R"({"instance": "a", "type": "R:NewOrder", "data": {"design": "d"}})"
                           "\n");
  EXPECT_EQ(errors, 5u);
  EXPECT_TRUE(out.empty());
}

TEST(GsmActor, AModelErrorIsReportedAtTheParameterWithTheModelsLine) {
  const std::string model = temp("bad.yaml");
  std::ofstream(model)
      << "artifact: bad\nstages:\n  A:\n    guards: [on +B]\n    milestones: {done: on T:A}\n";
  try {
    load_workflow_text("actors:\n  g: {type: gsm, model: " + model + "}\n", "w.yaml", "",
                       testing::load_context());
    FAIL() << "expected a LoadError";
  } catch (const LoadError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("w.yaml:2:"), std::string::npos) << what;
    EXPECT_NE(what.find("bad.yaml:4:14: unknown status attribute 'B' in the event '+B'"),
              std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace cwf::gsm
