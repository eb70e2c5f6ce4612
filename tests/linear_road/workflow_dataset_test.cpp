// The Linear Road workflow end to end on the shared dataset (5.1 M input lines, .xz): its answers
// agree with the Perl validator's tables: nothing missing, wrong or unexplained of any type. Takes
// 15-40 s (decompression, 8.4 M historical tolls, validation); skipped without the dataset.
#include <gtest/gtest.h>

#include "tests/linear_road/sanitized_build.hpp"

#include <filesystem>

#include "linear_road/validation.hpp"
#include "workflow_test_util.hpp"

namespace cwf::lr {
namespace {

TEST(LrWorkflowDataset, SharedDatasetAgreesWithThePerlValidator) {
  if (testing::kSanitizedBuild) GTEST_SKIP() << testing::kSkippedUnderSanitizers;
  const std::string dir = CWF_SOURCE_DIR "/../shared/linear_road";
  if (!std::filesystem::exists(dir + "/input.dat.xz") ||
      !std::filesystem::exists(dir + "/historical-tolls.dat.xz"))
    GTEST_SKIP() << "shared Linear Road dataset (input.dat.xz, historical-tolls.dat.xz) not "
                    "found in "
                 << dir;
  const std::string out = testing::test_directory("shared") + "/answers.out";
  testing::WorkflowRun run = testing::run_linear_road(
      dir + "/input.dat.xz", dir + "/historical-tolls.dat.xz", out, {"scheduled", "fifo", 2});
  EXPECT_EQ(run.summary.incomplete(), 0u);
  EXPECT_EQ(run.source_errors, 0u);

  ValidationOptions options;
  options.expected_dir = dir;
  options.actual_path = out;
  ValidationReport report = validate_answers(options);
  for (std::size_t type = 0; type < report.types.size(); ++type) {
    const TypeReport& t = report.types[type];
    SCOPED_TRACE(answer_type_name(type));
    EXPECT_GT(t.matched, 0u);
    EXPECT_EQ(t.missing, 0u);
    EXPECT_EQ(t.wrong, 0u);
    EXPECT_EQ(t.extra_unexplained, 0u);
    EXPECT_EQ(t.late, 0u);
  }
  EXPECT_TRUE(report.passed());
}

}  // namespace
}  // namespace cwf::lr
