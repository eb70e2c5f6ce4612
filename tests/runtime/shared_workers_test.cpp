// The second scheduling level: workers shared by the directors of several workflows, handed to
// the most important waiter first (runtime/execution/shared_workers.hpp).
#include "runtime/execution/shared_workers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/execution/runner.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"
#include "tests/eventually.hpp"

namespace cwf {
namespace {

using testing::Collect;
using testing::eventually;

// Waiters queued one after the other (each known to wait before the next comes), then released
// one at a time from a worker held throughout: the order in which they got it.
std::vector<int> order_served(const std::vector<int>& priorities,
                              std::vector<std::unique_ptr<WorkerShare>>& shares) {
  SharedWorkers workers(1);
  WorkerShare holder;
  holder.workers = &workers;
  workers.take(holder);
  std::mutex mutex;
  std::vector<int> served;
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < priorities.size(); ++i) {
    shares.push_back(std::make_unique<WorkerShare>());
    WorkerShare& share = *shares.back();
    share.workers = &workers;
    share.priority = priorities[i];
    threads.emplace_back([&, i] {
      workers.take(share);
      {
        std::lock_guard lock(mutex);
        served.push_back(static_cast<int>(i));
      }
      workers.give_back();
    });
    EXPECT_TRUE(eventually([&] { return workers.waiting() == i + 1; }));
  }
  EXPECT_EQ(holder.waits.load(), 0u);
  workers.give_back();
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(workers.busy(), 0u);
  return served;
}

TEST(SharedWorkers, AFreeWorkerGoesToTheWaiterOfHighestPriorityThenToTheEarliest) {
  std::vector<std::unique_ptr<WorkerShare>> shares;
  // Priorities of the waiters 0..4 in the order they came.
  EXPECT_EQ(order_served({1, 5, 3, 5, 3}, shares), (std::vector<int>{1, 3, 2, 4, 0}));
  for (const auto& share : shares) {
    EXPECT_EQ(share->turns.load(), 1u);
    EXPECT_EQ(share->waits.load(), 1u);
    EXPECT_GT(share->waited_ns.load(), 0u);
  }
}

TEST(SharedWorkers, WaitersOfOnePriorityAreServedInTheOrderTheyCame) {
  std::vector<std::unique_ptr<WorkerShare>> shares;
  EXPECT_EQ(order_served({0, 0, 0, 0}, shares), (std::vector<int>{0, 1, 2, 3}));
}

TEST(SharedWorkers, AFreeWorkerIsTakenWithoutWaiting) {
  SharedWorkers workers(2);
  WorkerShare a, b;
  a.workers = b.workers = &workers;
  workers.take(a);
  workers.take(b);
  EXPECT_EQ(workers.busy(), 2u);
  workers.give_back();
  workers.give_back();
  EXPECT_EQ(workers.busy(), 0u);
  EXPECT_EQ(a.waits.load() + b.waits.load(), 0u);
  EXPECT_EQ(a.turns.load() + b.turns.load(), 2u);
  EXPECT_GE(SharedWorkers(0).workers(), 1u);  // one per hardware thread
}

// A priority changed (cwf priority) or a run told to stop while its requests wait: they are
// ranked anew at the next hand-over, a stopping one first (so that it can end).
TEST(SharedWorkers, RequestsAlreadyWaitingAreRankedByTheirWorkflowsPriorityAsItIsNow) {
  SharedWorkers workers(1);
  WorkerShare holder, a, b, c;
  holder.workers = a.workers = b.workers = c.workers = &workers;
  b.priority = 5;
  c.priority = 3;
  workers.take(holder);
  std::mutex mutex;
  std::vector<const WorkerShare*> served;
  std::vector<std::thread> threads;
  for (WorkerShare* share : {&a, &b, &c}) {
    threads.emplace_back([&, share] {
      workers.take(*share);
      {
        std::lock_guard lock(mutex);
        served.push_back(share);
      }
      workers.give_back();
    });
    EXPECT_TRUE(eventually([&] { return workers.waiting() == threads.size(); }));
  }
  EXPECT_TRUE(workers.outranked(c));
  a.priority = 9;      // raised above b
  c.finishing = true;  // stopping: before everyone
  workers.priorities_changed();
  EXPECT_TRUE(workers.outranked(a));
  EXPECT_FALSE(workers.outranked(c));
  workers.give_back();
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(served, (std::vector<const WorkerShare*>{&c, &a, &b}));
}

TEST(SharedWorkers, AMemberOutranksTheLessImportantOnesUntilItLeaves) {
  SharedWorkers workers(1);
  WorkerShare low, high;
  low.workers = high.workers = &workers;
  high.priority = 5;
  workers.join(low);
  EXPECT_FALSE(workers.outranked_by_member(low));
  workers.join(high);
  EXPECT_TRUE(workers.outranked_by_member(low));
  EXPECT_FALSE(workers.outranked_by_member(high));
  low.priority = 7;
  workers.priorities_changed();
  EXPECT_FALSE(workers.outranked_by_member(low));
  EXPECT_TRUE(workers.outranked_by_member(high));
  workers.leave(low);
  EXPECT_FALSE(workers.outranked_by_member(high));
  EXPECT_FALSE(workers.outranked(high));  // nobody waits
}

// Counts the firings going on at once over every actor that shares it.
struct FiringsAtOnce {
  std::atomic<int> now{0};
  std::atomic<int> most{0};
  void enter() {
    int n = now.fetch_add(1) + 1;
    int seen = most.load();
    while (n > seen && !most.compare_exchange_weak(seen, n)) {
    }
    // Long enough for firings elsewhere to overlap this one if nothing keeps them apart.
    auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
    while (std::chrono::steady_clock::now() < until) {
    }
  }
  void leave() { now.fetch_sub(1); }
};

class CountedSource : public Actor {
 public:
  CountedSource(int count, FiringsAtOnce& firings) : count_(count), firings_(firings) {
    add_output("out");
  }
  void fire(FiringContext& context) override {
    firings_.enter();
    context.emit(Value(sent_++));
    firings_.leave();
  }
  bool postfire(FiringContext&) override { return sent_ < count_; }

 private:
  int count_;
  FiringsAtOnce& firings_;
  int sent_ = 0;
};

class CountedPass : public Actor {
 public:
  explicit CountedPass(FiringsAtOnce& firings) : firings_(firings) {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    firings_.enter();
    context.emit(context.token());
    firings_.leave();
  }

 private:
  FiringsAtOnce& firings_;
};

// Sends its token, less one, back to itself until it reaches zero.
class CountDown : public Actor {
 public:
  CountDown() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    ++firings;
    if (std::int64_t left = context.token().as_int(); left > 0) context.emit(Value(left - 1));
  }
  int firings = 0;
};

class OneToken : public Actor {
 public:
  explicit OneToken(std::int64_t value) : value_(value) { add_output("out"); }
  void fire(FiringContext& context) override { context.emit(Value(value_)); }
  bool postfire(FiringContext&) override { return false; }

 private:
  std::int64_t value_;
};

// A turn on a shared worker fires on the windows its actor had when the turn began, as a turn
// on the director's own worker does, however many more arrive meanwhile: an actor fed by its
// own loop (or by a producer as fast as it is) takes a turn per window here, instead of one turn
// as long as the loop that would hold the worker, and the stop and progress checks, throughout.
TEST(SharedWorkers, ATurnFiresOnlyOnTheWindowsPresentWhenItBegan) {
  constexpr int kRounds = 50;  // each round deepens the wave tag (at most 64 levels)
  SharedWorkers workers(1);
  WorkerShare share;
  share.workers = &workers;
  Workflow workflow("loop");
  workflow.emplace<OneToken>("start", kRounds);
  auto owned = std::make_unique<CountDown>();
  CountDown* count_down = owned.get();
  workflow.add("count_down", std::move(owned));
  workflow.connect("start", "count_down");
  workflow.connect("count_down", "count_down");
  RealClock clock;
  auto director = testing::make_test_director("scheduled", 0xffffffff);  // "every window"
  RunOptions options;
  options.worker_share = &share;
  workers.join(share);
  run_workflow(workflow, *director, clock, options);
  workers.leave(share);
  EXPECT_EQ(count_down->firings, kRounds + 1);
  // A turn takes the window present and at most one more (the bound is the queue's length
  // plus one): at least a turn for every two rounds, against one turn for all of them.
  EXPECT_GE(share.turns.load(), static_cast<std::uint64_t>(kRounds / 2));
}

class SharedWorkersUnderDirectors : public ::testing::TestWithParam<std::string> {};

// Two workflows, each under its own director (two workers for "scheduled_2_workers", one
// thread per actor for "threaded"), drawing on `shared` workers: never more firings at once than
// that, and every event arrives.
TEST_P(SharedWorkersUnderDirectors, NoMoreActorsFireAtOnceThanThereAreSharedWorkers) {
  constexpr int kEvents = 400;
  for (unsigned shared : {1u, 2u}) {
    SCOPED_TRACE("shared workers: " + std::to_string(shared));
    SharedWorkers workers(shared);
    FiringsAtOnce firings;
    std::vector<std::unique_ptr<WorkerShare>> shares;
    std::vector<Collect*> sinks;
    std::vector<std::thread> runs;
    std::vector<std::unique_ptr<Workflow>> workflows;
    for (int w = 0; w < 3; ++w) {
      auto workflow = std::make_unique<Workflow>("w" + std::to_string(w));
      workflow->emplace<CountedSource>("src", kEvents, firings);
      workflow->emplace<CountedPass>("a", firings);
      workflow->emplace<CountedPass>("b", firings);
      auto collect = std::make_unique<Collect>();
      sinks.push_back(collect.get());
      workflow->add("sink", std::move(collect));
      workflow->connect("src", "a");
      workflow->connect("a", "b");
      workflow->connect("b", "sink");
      shares.push_back(std::make_unique<WorkerShare>());
      shares.back()->workers = &workers;
      shares.back()->priority = w;
      workflows.push_back(std::move(workflow));
    }
    for (int w = 0; w < 3; ++w)
      runs.emplace_back([&, w] {
        RealClock clock;
        auto director = testing::make_test_director(GetParam(), 4);
        RunOptions options;
        options.worker_share = shares[w].get();
        workers.join(*shares[w]);
        run_workflow(*workflows[w], *director, clock, options);
        workers.leave(*shares[w]);
      });
    for (auto& run : runs)
      run.join();
    EXPECT_LE(firings.most.load(), static_cast<int>(shared));
    for (int w = 0; w < 3; ++w) {
      EXPECT_EQ(sinks[w]->events.size(), static_cast<std::size_t>(kEvents));
      EXPECT_GT(shares[w]->turns.load(), 0u);
    }
    EXPECT_EQ(workers.busy(), 0u);
    EXPECT_EQ(workers.waiting(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(All, SharedWorkersUnderDirectors,
                         ::testing::ValuesIn(testing::kTestDirectors));

}  // namespace
}  // namespace cwf
