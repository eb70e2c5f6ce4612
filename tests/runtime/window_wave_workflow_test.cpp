// CWP3 (stream synch) as a running workflow: an order is split into items, a warehouse confirms
// each item or drops it (out of stock), and the order's completion fires once per order on a
// window of step 1 wave, size 1 wave (delete used) holding every confirmation of that order.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

#include "runtime/execution/runner.hpp"
#include "runtime/windows/window_spec.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"
#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::AddConstant;
using testing::ListSource;

// Order n has n items: n*10 + 1 ... n*10 + n.
class SplitOrder : public Actor {
 public:
  SplitOrder() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& c) override {
    std::int64_t order = c.token().as_int();
    for (std::int64_t i = 1; i <= order; ++i)
      c.emit(order * 10 + i);
  }
};

// Item 2 of every order is out of stock, and so is everything of order 5.
class Warehouse : public Actor {
 public:
  Warehouse() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& c) override {
    std::int64_t item = c.token().as_int();
    if (item % 10 != 2 && item / 10 != 5) c.emit(item);
  }
};

// Records the tokens of every window it fires on.
class CompleteOrder : public Actor {
 public:
  CompleteOrder() { add_input("in"); }
  void fire(FiringContext& c) override {
    std::vector<int> tokens;
    for (const Event& e : c.window())
      tokens.push_back(static_cast<int>(e.token.as_int()));
    std::lock_guard lock(mutex_);
    windows.push_back(std::move(tokens));
  }
  std::vector<std::vector<int>> windows;

 private:
  std::mutex mutex_;
};

class WindowWaveWorkflow : public ::testing::TestWithParam<std::string> {};

TEST_P(WindowWaveWorkflow, OneWindowPerOrderWithAllItsConfirmations) {
  Workflow wf("orders");
  wf.emplace<ListSource>("orders", std::vector<Value>{1, 2, 3, 4, 5, 6});
  wf.emplace<SplitOrder>("split");
  wf.emplace<Warehouse>("warehouse");
  wf.emplace<AddConstant>("confirm", 1000);
  auto sink = std::make_unique<CompleteOrder>();
  CompleteOrder& completion = *sink;
  wf.add("completion", std::move(sink));
  wf.connect("orders", "split");
  wf.connect("split", "warehouse");
  wf.connect("warehouse", "confirm");
  WindowSpec spec = testing::window("1 wave", "1 wave");
  spec.delete_used = true;  // each order's confirmations are consumed: none expires
  wf.connect("confirm", "out", "completion", "in");
  wf.declare_window("completion", "in", spec);
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 4);
  RunSummary summary = run_workflow(wf, *director, clock);

  auto windows = completion.windows;
  for (auto& w : windows)
    std::sort(w.begin(), w.end());
  std::sort(windows.begin(), windows.end());
  // Order 5 had every item dropped: no window. Item 2 of each order was dropped, yet each order
  // closes.
  EXPECT_EQ(windows,
            (std::vector<std::vector<int>>{
                {1011}, {1021}, {1031, 1033}, {1041, 1043, 1044}, {1061, 1063, 1064, 1065, 1066}}));
  const ActorSummary& last = summary.actors.back();
  EXPECT_EQ(last.firings, 5u);
  EXPECT_EQ(last.late, 0u);
  EXPECT_EQ(last.expired, 0u);
}

// Keeps the items of one parity: two of them are two warehouses serving the same orders in
// parallel branches.
class ParityWarehouse : public Actor {
 public:
  explicit ParityWarehouse(int parity) : parity_(parity) {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& c) override {
    std::int64_t item = c.token().as_int();
    if (item % 2 == parity_ && item % 10 != 2) c.emit(item);
  }

 private:
  int parity_;
};

// CWP3 with parallel branches: the items of one order go to two warehouses, and the one port
// that synchronises them gets each order's confirmations from both, whichever branch finishes
// first.
TEST_P(WindowWaveWorkflow, ParallelWarehousesAreSynchronisedByWave) {
  Workflow wf("orders");
  wf.emplace<ListSource>("orders", std::vector<Value>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  wf.emplace<SplitOrder>("split");
  wf.emplace<ParityWarehouse>("odd", 1);
  wf.emplace<ParityWarehouse>("even", 0);
  auto sink = std::make_unique<CompleteOrder>();
  CompleteOrder& completion = *sink;
  wf.add("completion", std::move(sink));
  wf.connect("orders", "split");
  // The even branch is longer, so its confirmations come later.
  wf.emplace<AddConstant>("pack", 0);
  wf.emplace<AddConstant>("label", 0);
  wf.connect("split", "odd");
  wf.connect("split", "even");
  wf.connect("even", "pack");
  wf.connect("pack", "label");
  WindowSpec spec = testing::window("1 wave", "1 wave");
  spec.delete_used = true;
  wf.declare_window("completion", "in", spec);  // one window, fed by both warehouses
  for (const char* warehouse : {"odd", "label"})
    wf.connect(warehouse, "out", "completion", "in");
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 1);
  RunSummary summary = run_workflow(wf, *director, clock);

  auto windows = completion.windows;
  for (auto& w : windows)
    std::sort(w.begin(), w.end());
  std::sort(windows.begin(), windows.end());
  // Item 2 of every order is out of stock in both warehouses.
  EXPECT_EQ(windows, (std::vector<std::vector<int>>{{11},
                                                    {21},
                                                    {31, 33},
                                                    {41, 43, 44},
                                                    {51, 53, 54, 55},
                                                    {61, 63, 64, 65, 66},
                                                    {71, 73, 74, 75, 76, 77},
                                                    {81, 83, 84, 85, 86, 87, 88},
                                                    {91, 93, 94, 95, 96, 97, 98, 99}}));
  EXPECT_EQ(summary.actors.back().late, 0u);
}

INSTANTIATE_TEST_SUITE_P(Both, WindowWaveWorkflow, ::testing::ValuesIn(testing::kTestDirectors));

}  // namespace
}  // namespace cwf
