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

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

struct Pattern {
  std::string name;
  // False where two branches feed one sink (CWP6: the used events and the expired ones), whose
  // lines interleave differently on different threads: compared as the same multiset of lines.
  bool ordered;
};

void PrintTo(const Pattern& pattern, std::ostream* out) {
  *out << pattern.name;
}

class Patterns : public ::testing::TestWithParam<std::tuple<Pattern, std::string>> {};

TEST_P(Patterns, PrintExactlyTheExpectedOutput) {
  auto [pattern, director] = GetParam();
  ProcessResult result =
      run_cwf({"run", kPatterns + pattern.name + ".yaml", "--director", director});
  ASSERT_EQ(result.status, 0) << result.err;
  std::vector<std::string> actual = lines_of(result.out);
  std::vector<std::string> expected = lines_of(read_file(kExpected + pattern.name + ".out"));
  ASSERT_FALSE(expected.empty());
  if (!pattern.ordered) {
    std::sort(actual.begin(), actual.end());
    std::sort(expected.begin(), expected.end());
  }
  EXPECT_EQ(actual, expected);
}

INSTANTIATE_TEST_SUITE_P(
    BothDirectors, Patterns,
    ::testing::Combine(::testing::Values(Pattern{"cwp1_sequential_aggregate", true},
                                         Pattern{"cwp2_stream_join", true},
                                         Pattern{"cwp3_stream_synch", true},
                                         Pattern{"cwp6_expiration", false},
                                         Pattern{"figure9_two_within_5min", true},
                                         Pattern{"figure12_out_of_stock", true}),
                       ::testing::Values("scheduled", "threaded")),
    [](const auto& info) { return std::get<0>(info.param).name + "_" + std::get<1>(info.param); });

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
    long firings, in, out, queued, errors, dropped, late, expired;
    fields >> name >> firings >> in >> out >> queued >> errors >> dropped >> late >> expired;
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
