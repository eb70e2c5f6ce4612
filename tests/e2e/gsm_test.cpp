// `cwf gsm` and the shipped GSM workflow, through the binary.
#include <gtest/gtest.h>

#include <fstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kGsm = std::string(CWF_SOURCE_DIR) + "/workflows/gsm/";

TEST(GsmWorkflow, TheDeliberatelyInvalidEventMakesTheRunIncomplete) {
  ProcessResult result = run_cwf({"run", kGsm + "design_to_order_run.yaml"});
  EXPECT_EQ(result.status, 3) << result.err;
  EXPECT_NE(result.err.find("actor 'orders' (gsm) rejected an event: gsm: no instance "
                            "\"order-3\" and T:EngineeringDesign does not create one\n    event "
                            "{\"instance\":\"order-3\",\"type\":\"T:EngineeringDesign\"} from "),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("design_to_order_events.jsonl:9\n"), std::string::npos) << result.err;
}

TEST(GsmCommand, RulesCountsEachTemplate) {
  ProcessResult result = run_cwf({"gsm", "rules", kGsm + "design_to_order.yaml", "--keep-vacuous"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("DesignToOrder: 41 PAC rules,"), std::string::npos) << result.out;
  for (const char* line :
       {"guard opens stage: 9\n", "milestone achieved: 7\n",
        "milestone invalidated by its sentry: 3\n",
        "(re)opening the stage invalidates its milestones: 13\n",
        "achieved milestone closes stage: 7\n", "parent closing closes child: 2\n"})
    EXPECT_NE(result.out.find(line), std::string::npos) << line;
  result = run_cwf({"gsm", "rules", kGsm + "design_to_order.yaml"});
  EXPECT_NE(result.out.find("39 PAC rules (2 vacuous reopening rules omitted"), std::string::npos);
}

TEST(GsmCommand, GraphIsDot) {
  ProcessResult result = run_cwf({"gsm", "graph", kGsm + "design_to_order.yaml"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out.rfind("digraph \"DesignToOrder\" {", 0), 0u);
  EXPECT_NE(result.out.find("\"+ED:cp\" -> \"+PE\";"), std::string::npos);
}

TEST(GsmCommand, GenerateWritesALoadableModel) {
  ProcessResult result = run_cwf({"gsm", "generate", "split", "3"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("  S3:\n    guards: [\"on -S0\"]"), std::string::npos) << result.out;
  const std::string path = ::testing::TempDir() + "cwf_gsm_seq4.yaml";
  ASSERT_EQ(run_cwf({"gsm", "generate", "seq", "4", "-o", path}).status, 0);
  result = run_cwf({"gsm", "rules", path});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("seq4: 16 PAC rules"), std::string::npos) << result.out;
}

TEST(GsmCommand, EventsShowEachEventsEpdg) {
  // 1-in-3-Split of 000 Table 5.5.1: ePDG* 8, average 3.2 over 16 graph nodes.
  const std::string path = ::testing::TempDir() + "cwf_gsm_split3.yaml";
  ASSERT_EQ(run_cwf({"gsm", "generate", "split", "3", "-o", path}).status, 0);
  ProcessResult result = run_cwf({"gsm", "events", path});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("split3: 5 event types, 16 graph nodes; ePDG nodes: longest 8, "
                            "average 3.20\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("T:S0: updates -; ePDG 8 nodes, 8 rules\n  +S0:done -S0 +S1 +S2 +S3 "
                            "-S1:done -S2:done -S3:done\n"),
            std::string::npos)
      << result.out;
}

TEST(GsmCommand, ErrorsNameTheFileAndLine) {
  const std::string path = ::testing::TempDir() + "cwf_gsm_bad.yaml";
  std::ofstream(path) << "artifact: bad\nstages:\n  A:\n    guards: [if B:finishd]\n"
                         "    milestones: {done: on T:A}\n  B:\n    guards: [on R:Go]\n"
                         "    milestones: {finished: on T:B}\n";
  ProcessResult result = run_cwf({"gsm", "rules", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find(path + ":4:14: in the condition of guard A.g1 of A ('B:finishd'): "
                                   "column 1: unknown milestone 'B:finishd'; did you mean "
                                   "'B:finished'?"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(run_cwf({"gsm", "frobnicate"}).status, 2);
  EXPECT_EQ(run_cwf({"gsm", "help"}).status, 0);
  EXPECT_EQ(run_cwf({"gsm", "generate", "seq", "x"}).status, 2);
}

// A model that does not load is a bad file: exit status 2, as for a workflow, with its
// file:line:column, for every command that reads one.
TEST(GsmCommand, AModelThatDoesNotLoadExitsWithTwo) {
  const std::string dir = ::testing::TempDir();
  const std::string syntax = dir + "cwf_gsm_syntax.yaml";
  std::ofstream(syntax) << "artifact: bad\nstages: [A\n";
  const std::string unknown_key = dir + "cwf_gsm_unknown_key.yaml";
  std::ofstream(unknown_key) << "artifact: bad\nstage:\n  A: {guards: [on R:Go], milestones: "
                                "{done: on T:A}}\n";
  const std::string missing = dir + "cwf_gsm_no_such_model.yaml";
  for (const char* command : {"rules", "graph", "events"}) {
    SCOPED_TRACE(command);
    ProcessResult result = run_cwf({"gsm", command, syntax});
    EXPECT_EQ(result.status, 2);
    EXPECT_EQ(result.err.rfind(syntax + ":3:1: ", 0), 0u) << result.err;
    EXPECT_TRUE(result.out.empty()) << result.out;
    result = run_cwf({"gsm", command, unknown_key});
    EXPECT_EQ(result.status, 2);
    EXPECT_EQ(result.err, unknown_key +
                              ":2:1: unknown model key 'stage' (expected one of: artifact, "
                              "description, data, events, stages); did you mean 'stages'?\n");
    result = run_cwf({"gsm", command, missing});
    EXPECT_EQ(result.status, 2);
    EXPECT_NE(result.err.find(missing), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("cannot open the model file"), std::string::npos) << result.err;
  }
}

TEST(GsmCommand, BadUsageExitsWithTwo) {
  const std::string model = kGsm + "design_to_order.yaml";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"gsm"},
           {"gsm", "rules"},
           {"gsm", "rules", model, model},
           {"gsm", "graph", model, "--bogus"},
           {"gsm", "events", "--keep-vacuous"},
           {"gsm", "generate"},
           {"gsm", "generate", "seq", "3", "-o"},
           {"gsm", "generate", "loop", "3"},
       }) {
    ProcessResult result = run_cwf(args);
    EXPECT_EQ(result.status, 2) << args.size() << " arguments: " << result.err;
    EXPECT_FALSE(result.err.empty());
  }
}

}  // namespace
}  // namespace cwf::testing
