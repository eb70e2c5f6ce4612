// Singh's Example 4 (workflows/examples/guards): `cwf guards` must give the expected guards (the
// workflows' outcomes under every director: shipped_examples_test.cpp).
#include <gtest/gtest.h>

#include <fstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kGuards = std::string(CWF_SOURCE_DIR) + "/workflows/examples/guards/";

TEST(GuardsWorkflow, GuardsCommandOnTheShippedDependencies) {
  ProcessResult result = run_cwf({"guards", kGuards + "buy_ticket_book_car.deps.yaml"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(lines_of(result.out)[0], "s_buy[cid]: \u25c7s_book[cid]");
  EXPECT_EQ(lines_of(result.out)[4], "c_buy[cid]: \u25a1c_book[cid]");
  EXPECT_EQ(lines_of(result.out).size(), 10u);
}

TEST(GuardsWorkflow, GuardsCommandGivenAWorkflowFileSaysWhereItGoesWrong) {
  ProcessResult result = run_cwf({"guards", kGuards + "buy_ticket_book_car.yaml"});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("buy_ticket_book_car.yaml:8:1: unknown key 'director'"),
            std::string::npos)
      << result.err;
}

TEST(GuardsWorkflow, ABadInlineDependencyIsReportedAtItsParameter) {
  std::string path = ::testing::TempDir() + "cwf_guards_bad_inline.yaml";
  std::ofstream(path) << "actors:\n"
                         "  guards: {type: guard_scheduler, dependencies: [\"e1 + (e2\"]}\n"
                         "  out: {type: stdout}\n"
                         "connections:\n"
                         "  - guards -> out\n";
  ProcessResult result = run_cwf({"validate", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find(":2:49: invalid 'dependencies' for actor 'guards': in 'e1 + (e2': "
                            "column 9: expected ')', found the end of the expression"),
            std::string::npos)
      << result.err;
}

}  // namespace
}  // namespace cwf::testing
