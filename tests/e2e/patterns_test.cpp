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

// CWP4: every in-stock item of the cancelled orders (2 and 4, two each) is cancelled exactly once,
// either still queued at `in_stock` (then never passed on) or at `pack`; `pack` also cancels the
// two out-of-stock items that `cancel` passes on. Where the cancellation finds an item depends on
// the director; `in_stock` may also find there the out-of-stock items it would have filtered out,
// and counts them too. The run is complete.
TEST(Patterns, CaseCancellationCancelsEachItemOfTheCancelledOrdersOnceAndExitsZero) {
  constexpr long kInStockItems = 9, kCancelledInStock = 4, kOutOfStock = 2;
  for (const std::string& director : kEveryDirector) {
    std::vector<std::string> args = {"run", kPatterns + "cwp4_case_cancellation.yaml", "--stats"};
    for (const std::string& a : director_args(director))
      args.push_back(a);
    ProcessResult result = run_cwf(args);
    ASSERT_EQ(result.status, 0) << director << "\n" << result.err;
    std::istringstream stats(result.err);
    long in_stock_out = -1, in_stock_cancelled = -1, pack_cancelled = -1, pack_firings = -1;
    for (std::string line; std::getline(stats, line);) {
      std::istringstream fields(line);
      std::string name;
      long firings, in, out, queued, rejected, failed, dropped, late, lost, expired, cancelled;
      if (!(fields >> name >> firings >> in >> out >> queued >> rejected >> failed >> dropped >>
            late >> lost >> expired >> cancelled))
        continue;
      if (name == "in_stock") in_stock_out = out, in_stock_cancelled = cancelled;
      if (name == "pack") pack_cancelled = cancelled, pack_firings = firings;
    }
    ASSERT_GE(in_stock_out, 0) << director << "\n" << result.err;
    ASSERT_GE(pack_cancelled, 0) << director << "\n" << result.err;
    const long in_stock_items_cancelled_at_in_stock = kInStockItems - in_stock_out;
    EXPECT_EQ(in_stock_items_cancelled_at_in_stock + pack_cancelled - kOutOfStock,
              kCancelledInStock)
        << director << "\n"
        << result.err;
    const long out_of_stock_cancelled_at_in_stock =
        in_stock_cancelled - in_stock_items_cancelled_at_in_stock;
    EXPECT_GE(out_of_stock_cancelled_at_in_stock, 0) << director << "\n" << result.err;
    EXPECT_LE(out_of_stock_cancelled_at_in_stock, kOutOfStock) << director << "\n" << result.err;
    EXPECT_EQ(pack_firings, 3) << director << "\n" << result.err;  // orders 1, 3 and 5
  }
}

}  // namespace
}  // namespace cwf::testing
