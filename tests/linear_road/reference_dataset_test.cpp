// The reference implementation, the oracle of the workflow's differential tests, on the shared
// dataset: validated itself against the Perl validator's answers, every figure pinned
// (shared_dataset_agreement.hpp), and a quick run over the start of the data that the sanitized
// builds run too. Without the dataset these tests fail (shared_dataset.hpp).
#include <gtest/gtest.h>

#include "tests/linear_road/sanitized_build.hpp"

#include "linear_road/answer_writer.hpp"
#include "linear_road/reference_run.hpp"
#include "linear_road/validation.hpp"
#include "reference_test_util.hpp"
#include "shared_dataset.hpp"
#include "shared_dataset_agreement.hpp"
#include "workflow_test_util.hpp"

namespace cwf::lr {
namespace {

TEST(ReferenceDataset, FirstTwoHundredThousandLinesOfTheSharedDataset) {
  CWF_REQUIRE_SHARED_DATASET();
  const std::string dir = testing::shared_dataset_dir();
  HistoricalTollTable history;  // not loaded: 8.4M rows would take seconds
  testing::CollectedAnswers answers;
  ReferenceRun run = run_reference(dir + "/input.dat.xz", history, answers, 200000);
  ASSERT_TRUE(run.error.empty()) << run.error;
  EXPECT_EQ(run.lines, 200000u);
  EXPECT_EQ(run.records, 200000u);
  EXPECT_EQ(run.rejects.total(), 0u);
  EXPECT_EQ(run.speeds_left_out, 0u);
  EXPECT_EQ(run.counts.tolls, answers.tolls.size());
  EXPECT_EQ(run.counts.balances, run.counts.balance_queries);
  EXPECT_EQ(run.counts.expenditures, run.counts.expenditure_queries);
  EXPECT_GT(answers.tolls.size(), 0u);
  // Every notification is for a report of the same second.
  for (const auto& t : answers.tolls)
    ASSERT_EQ(t.emit, t.time);
}

// About 10 s of CPU: decompressing the input twice (the run, then the validator explaining
// re-entries) and the historical tolls once is most of it.
TEST(ReferenceDataset, SharedDatasetAgreesWithThePerlValidator) {
  if (testing::kSanitizedBuild) GTEST_SKIP() << testing::kSkippedUnderSanitizers;
  CWF_REQUIRE_SHARED_DATASET();
  const std::string dir = testing::shared_dataset_dir();
  HistoricalTollTable history;
  HistoricalTollTable::LoadResult loaded = history.load(dir + "/historical-tolls.dat.xz");
  ASSERT_TRUE(loaded.error.empty()) << loaded.error;
  const std::string out = testing::test_directory("reference_shared") + "/expected.out";
  AnswerWriter writer;
  ASSERT_TRUE(writer.open(out));
  ReferenceRun run = run_reference(dir + "/input.dat.xz", history, writer);
  ASSERT_TRUE(writer.close()) << writer.error();
  ASSERT_TRUE(run.error.empty()) << run.error;
  EXPECT_EQ(run.lines, 5'095'627u);
  EXPECT_EQ(run.records, 5'095'627u);
  EXPECT_EQ(run.speeds_left_out, 0u);  // the dataset's speeds are 0..94
  EXPECT_EQ(run.counts.new_trips, 1'988u);
  EXPECT_EQ(run.counts.unknown_expenditures, 0u);
  EXPECT_EQ(run.accidents.size(), 3u);

  ValidationOptions options;
  options.expected_dir = dir;
  options.actual_path = out;
  testing::expect_shared_dataset_agreement(validate_answers(options));
}

}  // namespace
}  // namespace cwf::lr
