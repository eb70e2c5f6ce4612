// A quick run of the reference over the start of the shared dataset: every line parses and the
// answer counts are those of the full comparison with the Perl validator (docs/linear-road.md)
// restricted to these lines. The full end-to-end comparison lives with the validation tests.
#include <gtest/gtest.h>

#include <filesystem>

#include "linear_road/reference_run.hpp"
#include "reference_test_util.hpp"

namespace cwf::lr {
namespace {

TEST(ReferenceDataset, FirstTwoHundredThousandLinesOfTheSharedDataset) {
  const std::string dir = CWF_SOURCE_DIR "/../shared/linear_road";
  if (!std::filesystem::exists(dir + "/input.dat.xz"))
    GTEST_SKIP() << "shared Linear Road dataset not found at " << dir;
  HistoricalTollTable history;  // not loaded: 8.4M rows would take seconds
  testing::CollectedAnswers answers;
  ReferenceRun run = run_reference(dir + "/input.dat.xz", history, answers, 200000);
  ASSERT_TRUE(run.error.empty()) << run.error;
  EXPECT_EQ(run.lines, 200000u);
  EXPECT_EQ(run.records, 200000u);
  EXPECT_EQ(run.rejects.total(), 0u);
  EXPECT_EQ(run.counts.tolls, answers.tolls.size());
  EXPECT_EQ(run.counts.balances, run.counts.balance_queries);
  EXPECT_EQ(run.counts.expenditures, run.counts.expenditure_queries);
  EXPECT_GT(answers.tolls.size(), 0u);
  // Every notification is for a report of the same second.
  for (const auto& t : answers.tolls)
    ASSERT_EQ(t.emit, t.time);
}

}  // namespace
}  // namespace cwf::lr
