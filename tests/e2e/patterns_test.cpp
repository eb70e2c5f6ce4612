// The continuous-workflow pattern examples (workflows/examples/patterns), run through the `cwf`
// binary under both directors, must print exactly the expected output.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kPatterns = std::string(CWF_SOURCE_DIR) + "/workflows/examples/patterns/";
const std::string kExpected =
    std::string(CWF_SOURCE_DIR) + "/workflows/examples/expected/patterns/";

using Pattern = ShippedWorkflow;

class Patterns : public ::testing::TestWithParam<std::tuple<Pattern, std::string>> {};

TEST_P(Patterns, PrintExactlyTheExpectedOutput) {
  auto [pattern, director] = GetParam();
  expect_output(kPatterns + pattern.name + ".yaml", kExpected + pattern.name + ".out", director,
                pattern.ordered);
}

INSTANTIATE_TEST_SUITE_P(
    EveryDirector, Patterns,
    ::testing::Combine(::testing::Values(Pattern{"cwp1_sequential_aggregate", true},
                                         Pattern{"cwp2_stream_join", true},
                                         Pattern{"cwp3_stream_synch", false},
                                         Pattern{"cwp6_expiration", false},
                                         Pattern{"figure9_two_within_5min", true},
                                         Pattern{"figure12_out_of_stock", true}),
                       ::testing::ValuesIn(kEveryDirector)),
    [](const auto& info) {
      return std::get<0>(info.param).name + "_" + director_label(std::get<1>(info.param));
    });

// Figure 9: the windows with one event are declined by the precondition and keep it; the window
// {b, c} is fired on and deleted; only a (never used) expires.
TEST(Patterns, Figure9DeclinedWindowsKeepTheirEventsOnlyTheUnusedOneExpires) {
  ProcessResult result = run_cwf({"run", kPatterns + "figure9_two_within_5min.yaml", "--stats"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(lines_of(result.out).size(), 1u) << result.out;
  std::istringstream stats(result.err);
  bool found = false;
  for (std::string line; std::getline(stats, line);) {
    std::istringstream fields(line);
    std::string name;
    long firings, in, out, queued, rejected, failed, dropped, late, lost, expired;
    fields >> name >> firings >> in >> out >> queued >> rejected >> failed >> dropped >> late >>
        lost >> expired;
    if (name != "a") continue;
    found = true;
    EXPECT_EQ(firings, 1);
    EXPECT_EQ(in, 3);
    EXPECT_EQ(expired, 1);
  }
  EXPECT_TRUE(found) << result.err;
}

}  // namespace
}  // namespace cwf::testing
