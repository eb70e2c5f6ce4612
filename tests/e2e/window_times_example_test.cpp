// The shipped example of a per-minute count with a time column
// (workflows/examples/hot_readings_per_minute.yaml) writes exactly the expected CSV file under
// every director and policy: a row per minute, empty minutes included, each with the minute's
// bounds.
#include <gtest/gtest.h>

#include <cstdio>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kExamples = std::string(CWF_SOURCE_DIR) + "/workflows/examples/";

class WindowTimesExample : public ::testing::TestWithParam<std::string> {};

TEST_P(WindowTimesExample, WritesTheExpectedCsvWithATimeColumn) {
  const std::string director = GetParam();
  const std::string out =
      ::testing::TempDir() + "cwf_hot_readings_per_minute_" + director_label(director) + ".csv";
  std::remove(out.c_str());
  std::vector<std::string> args = {"run", kExamples + "hot_readings_per_minute.yaml", "--set",
                                   "out.path=" + out};
  for (const std::string& a : director_args(director))
    args.push_back(a);
  ProcessResult result = run_cwf(args);
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_file(out), read_file(kExamples + "expected/hot_readings_per_minute.csv"));
}

INSTANTIATE_TEST_SUITE_P(EveryDirector, WindowTimesExample, ::testing::ValuesIn(kEveryDirector),
                         [](const auto& info) { return director_label(info.param); });

}  // namespace
}  // namespace cwf::testing
