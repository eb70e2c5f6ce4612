// The shipped examples through the `cwf` binary beyond their expected output
// (shipped_examples_test.cpp): what the summary and exit status say, and the endless ticker.
#include <gtest/gtest.h>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kExamples = std::string(CWF_SOURCE_DIR) + "/workflows/examples/";

// The example sends malformed lines to its `errors` port: the workflow handles them (here, by
// printing them), so nothing is lost and the run is complete.
TEST(Examples, MalformedInputSentToTheErrorsPortIsHandledNotLost) {
  ProcessResult result = run_cwf({"run", kExamples + "input_errors.yaml"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_NE(result.out.find(R"({"bad_line":4,"error":"expected 3 fields, found 2"})"),
            std::string::npos)
      << result.out;
}

// The ticks of an endless source, stopped by time or by Ctrl-C, are a gap-free prefix 0, 1, 2...
void expect_contiguous_ticks(const std::string& out, std::size_t at_least) {
  std::vector<std::string> lines = lines_of(out);
  ASSERT_GE(lines.size(), at_least) << out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    ASSERT_EQ(lines[i], "{\"tick\":" + std::to_string(i) + "}");
}

TEST(Examples, ForDurationStopsAnEndlessSourceAndDrains) {
  for (const std::string director : {"scheduled", "threaded"}) {
    ProcessResult result =
        run_cwf({"run", kExamples + "ticker.yaml", "--for", "450ms", "--director", director});
    ASSERT_EQ(result.status, 0) << result.err;
    expect_contiguous_ticks(result.out, 3);
    EXPECT_LE(lines_of(result.out).size(), 30u) << "ran far past --for under " << director;
  }
}

TEST(Examples, InterruptStopsDrainsPrintsTheSummaryAndExitsZero) {
  ProcessResult result = run_cwf({"run", kExamples + "ticker.yaml", "--stats"}, 400);
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.err.find("interrupted"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("firings"), std::string::npos) << result.err;  // the summary table
  expect_contiguous_ticks(result.out, 1);
}

}  // namespace
}  // namespace cwf::testing
