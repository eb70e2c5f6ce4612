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

// CWP4: the cancelled orders' items are counted as cancelled (where the cancellation found them
// depends on the director, their number does not), and the run is complete.
TEST(Patterns, CaseCancellationCountsTheCancelledItemsAndExitsZero) {
  for (const std::string& director : kEveryDirector) {
    std::vector<std::string> args = {"run", kPatterns + "cwp4_case_cancellation.yaml", "--stats"};
    for (const std::string& a : director_args(director))
      args.push_back(a);
    ProcessResult result = run_cwf(args);
    ASSERT_EQ(result.status, 0) << director << "\n" << result.err;
    std::istringstream stats(result.err);
    long total = 0;
    for (std::string line; std::getline(stats, line);) {
      std::istringstream fields(line);
      std::string name;
      long firings, in, out, queued, rejected, failed, dropped, late, lost, expired, cancelled;
      if (!(fields >> name >> firings >> in >> out >> queued >> rejected >> failed >> dropped >>
            late >> lost >> expired >> cancelled))
        continue;
      if (name == "in_stock" || name == "pack") total += cancelled;
    }
    // Orders 2 and 4: two items in stock each, and the item out of stock that `cancel` passes on.
    EXPECT_EQ(total, 6) << director << "\n" << result.err;
  }
}

}  // namespace
}  // namespace cwf::testing
