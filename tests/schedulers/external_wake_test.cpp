// A source fed from outside the workflow's threads (an I/O loop) waits for its ExternalWake
// without polling and without holding a worker: under every director, the other source's events
// all go through while it waits, what is pushed to it afterwards arrives whole and in order, and
// it fires about once per wake, not in a loop.
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/execution/runner.hpp"
#include "tests/eventually.hpp"
#include "tests/runtime/test_actors.hpp"
#include "tests/schedulers/all_policies.hpp"

namespace cwf {
namespace {

using testing::Collect;
using testing::eventually;
using testing::ListSource;

// What the outside thread hands the source: numbers, then the end.
struct Feed {
  std::mutex mutex;
  std::deque<int> items;
  bool ended = false;
  ExternalWake wake;  // the source's, set in its initialize()
  std::atomic<bool> ready{false};

  void push(int item) {
    {
      std::lock_guard lock(mutex);
      items.push_back(item);
    }
    wake.wake();  // after the item is in
  }
  void end() {
    {
      std::lock_guard lock(mutex);
      ended = true;
    }
    wake.wake();
  }
};

class FedSource : public Actor {
 public:
  explicit FedSource(Feed& feed) : feed_(feed) { add_output("out"); }
  void initialize(ActorContext& context) override {
    feed_.wake = context.external_wake();
    feed_.ready = true;
  }
  void fire(FiringContext& context) override {
    ++firings;
    std::deque<int> taken;
    {
      std::lock_guard lock(feed_.mutex);
      taken.swap(feed_.items);
      ended_ = feed_.ended;
    }
    for (int item : taken)
      context.emit(Value(item));
    if (taken.empty() && !ended_) context.await_input();
  }
  bool postfire(FiringContext&) override { return !ended_; }

  std::atomic<int> firings{0};

 private:
  Feed& feed_;
  bool ended_ = false;
};

class ExternalWakeUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(ExternalWakeUnderEveryDirector, AWaitingSourceHoldsNoWorkerAndMissesNoWake) {
  constexpr int kOthers = 2000, kFed = 500;
  Feed feed;
  Workflow workflow;
  auto& fed = static_cast<FedSource&>(
      *workflow.actor(workflow.add("fed", std::make_unique<FedSource>(feed))).actor);
  std::vector<Value> numbers;
  for (int i = 0; i < kOthers; ++i)
    numbers.emplace_back(i);
  workflow.add("others", std::make_unique<ListSource>(numbers));
  auto& fed_out = static_cast<Collect&>(
      *workflow.actor(workflow.add("fed_out", std::make_unique<Collect>())).actor);
  auto& others_out = static_cast<Collect&>(
      *workflow.actor(workflow.add("others_out", std::make_unique<Collect>())).actor);
  workflow.connect("fed", "out", "fed_out", "in");
  workflow.connect("others", "out", "others_out", "in");

  auto run_director = schedulers::testing::director_named(GetParam());
  RealClock clock;
  std::thread run([&] { run_workflow(workflow, *run_director, clock); });

  // The fed source waits (nothing was pushed) while the other one's events all go through, on
  // one worker too.
  ASSERT_TRUE(eventually([&] { return others_out.size() == kOthers; }));
  EXPECT_LE(fed.firings.load(), 3) << "it fired without input";
  // Pushed from here (another thread), one by one, each with a wake: all arrive, in order.
  for (int i = 0; i < kFed; ++i)
    feed.push(i);
  ASSERT_TRUE(eventually([&] { return fed_out.size() == kFed; }));
  feed.end();
  run.join();
  std::vector<Value> expected;
  for (int i = 0; i < kFed; ++i)
    expected.emplace_back(i);
  EXPECT_EQ(fed_out.tokens(), expected);
  // Wakes that come while it fires coalesce: at most one firing per wake, and some to end.
  EXPECT_LE(fed.firings.load(), kFed + 4);
}

INSTANTIATE_TEST_SUITE_P(Directors, ExternalWakeUnderEveryDirector,
                         ::testing::Values("fifo/1", "fifo/2", "qbs/1", "qbs/2", "rr/1", "rr/2",
                                           "rb/1", "rb/2", "threaded"),
                         schedulers::testing::director_test_name);

// A wake before the run started or after it ended reaches nothing.
TEST(ExternalWake, AHandleOutsideARunWakesNothing) {
  ExternalWake inert;
  inert.wake();  // no source behind it
  Feed feed;
  Workflow workflow;
  workflow.add("fed", std::make_unique<FedSource>(feed));
  workflow.add("out", std::make_unique<Collect>());
  workflow.connect("fed", "out", "out", "in");
  auto director = make_director(DirectorConfig{}, schedulers::testing::all_policies());
  RealClock clock;
  std::thread run([&] { run_workflow(workflow, *director, clock); });
  ASSERT_TRUE(eventually([&] { return feed.ready.load(); }));
  feed.end();
  run.join();
  feed.wake.wake();  // the run is over: nothing happens
}

}  // namespace
}  // namespace cwf
