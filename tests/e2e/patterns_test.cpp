// The continuous-workflow pattern examples (workflows/examples/patterns) through the `cwf` binary,
// beyond their expected output (shipped_examples_test.cpp): what the summary says.
#include <gtest/gtest.h>

#include <sstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kPatterns = std::string(CWF_SOURCE_DIR) + "/workflows/examples/patterns/";
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
