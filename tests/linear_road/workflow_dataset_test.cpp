// The Linear Road workflow end to end on the shared dataset (5.1 M input lines, .xz): its answers
// agree with the Perl validator's tables as the reference's do, to the figure: nothing missing,
// wrong or unexplained of any type, and exactly the explained differences
// (shared_dataset_agreement.hpp). Takes 15-40 s (decompression, 8.4 M historical tolls,
// validation); fails without the dataset (shared_dataset.hpp).
#include <gtest/gtest.h>

#include "tests/linear_road/sanitized_build.hpp"

#include "linear_road/validation.hpp"
#include "shared_dataset.hpp"
#include "shared_dataset_agreement.hpp"
#include "workflow_test_util.hpp"

namespace cwf::lr {
namespace {

// Runs `workflow` on the shared dataset (fifo on two workers) and checks the agreement.
void expect_agreement_on_shared_dataset(const std::string& workflow, const std::string& name) {
  const std::string dir = testing::shared_dataset_dir();
  const std::string out = testing::test_directory(name) + "/answers.out";
  testing::WorkflowRun run =
      testing::run_linear_road(dir + "/input.dat.xz", dir + "/historical-tolls.dat.xz", out,
                               {"scheduled", "fifo", 2}, {}, workflow);
  EXPECT_EQ(run.summary.incomplete(), 0u);
  EXPECT_EQ(run.source_errors, 0u);

  ValidationOptions options;
  options.expected_dir = dir;
  options.actual_path = out;
  testing::expect_shared_dataset_agreement(validate_answers(options));
}

TEST(LrWorkflowDataset, SharedDatasetAgreesWithThePerlValidator) {
  if (testing::kSanitizedBuild) GTEST_SKIP() << testing::kSkippedUnderSanitizers;
  CWF_REQUIRE_SHARED_DATASET();
  expect_agreement_on_shared_dataset(testing::kFusedWorkflow, "shared");
}

// The benchmark built from windows, lookups and folds (workflows/linear_road_windows.yaml) gives
// the same answers: the same agreement, to the figure. Takes about a minute (the windows hold
// the cars' groups; the fused workflow takes seconds).
TEST(LrWorkflowDataset, TheWindowedWorkflowAgreesWithThePerlValidatorToo) {
  if (testing::kSanitizedBuild) GTEST_SKIP() << testing::kSkippedUnderSanitizers;
  CWF_REQUIRE_SHARED_DATASET();
  expect_agreement_on_shared_dataset(testing::kWindowsWorkflow, "shared_windows");
}

}  // namespace
}  // namespace cwf::lr
