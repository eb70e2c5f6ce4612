// An actor that is not a source hands work to a thread outside the workflow and gets the answer
// back through its ExternalWake (FiringContext::defer, emit_deferred, await_outside): under
// every director the answers go on in the requests' waves, the run does not end before the
// outside has answered, and a deadline the actor set keeps its time after the end of input
// instead of coming due at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <mutex>
#include <thread>

#include "runtime/execution/runner.hpp"
#include "tests/runtime/test_actors.hpp"
#include "tests/schedulers/all_policies.hpp"

namespace cwf {
namespace {

using cwf::testing::Collect;
using cwf::testing::ListSource;
using cwf::testing::Repeat;

// Asks "the outside" (a thread per request) to double each token; the answer comes 20 ms later,
// except for `never` which is never answered: its deadline, `patience` after the request on the
// workflow clock, answers it with -1.
class AskOutside final : public Actor {
 public:
  AskOutside(std::int64_t never, Duration patience) : never_(never), patience_(patience) {
    add_input("in");
    add_output("out");
  }
  ~AskOutside() override {
    for (std::thread& t : outside_)
      t.join();
  }
  void initialize(ActorContext& context) override { wake_ = context.external_wake(); }
  void fire(FiringContext& context) override {
    if (context.port() == 0) {
      std::int64_t n = context.token().as_int();
      WaveTag tag = context.defer();
      pending_.push_back({n, tag, context.time() + patience_});
      if (n != never_)
        outside_.emplace_back([this, n] {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          {
            std::lock_guard lock(mutex_);
            answers_.push_back(n * 2);
          }
          wake_.wake();
        });
      else
        context.fire_again_at(context.clock().now() + patience_);
    } else {
      std::deque<std::int64_t> answers;
      {
        std::lock_guard lock(mutex_);
        answers.swap(answers_);
      }
      for (std::int64_t answer : answers)
        answer_one(context, answer / 2, answer);
      // A deadline: the one never answered, if its time came (on the clock, not at once).
      for (std::size_t i = 0; i < pending_.size();)
        if (pending_[i].n == never_ && context.clock().now() >= pending_[i].deadline)
          answer_one(context, never_, -1);
        else
          ++i;
    }
    context.await_outside(!pending_.empty());
  }

 private:
  struct Pending {
    std::int64_t n;
    WaveTag tag;
    Timestamp deadline;
  };
  void answer_one(FiringContext& context, std::int64_t n, std::int64_t answer) {
    for (auto it = pending_.begin(); it != pending_.end(); ++it)
      if (it->n == n) {
        context.emit_deferred(0, Value(answer), it->tag);
        pending_.erase(it);
        return;
      }
  }

  std::int64_t never_;
  Duration patience_;
  ExternalWake wake_;
  std::vector<Pending> pending_;
  std::vector<std::thread> outside_;
  std::mutex mutex_;
  std::deque<std::int64_t> answers_;
};

class OutsideWork : public ::testing::TestWithParam<std::string> {};

TEST_P(OutsideWork, AnswersGoOnInTheRequestsWavesAndTheRunWaitsForThemAndForTheDeadline) {
  Workflow workflow("outside");
  workflow.add("numbers", std::make_unique<testing::ListSource>(
                              std::vector<Value>{Value(1), Value(2), Value(3)}));
  workflow.add("twice", std::make_unique<Repeat>(2));  // t -> t.1, t.2
  workflow.add("ask", std::make_unique<AskOutside>(3, 300 * kMillisecond));
  auto collect = std::make_unique<Collect>();
  Collect& out = *collect;
  workflow.add("out", std::move(collect));
  workflow.connect("numbers", "twice");
  workflow.connect("twice", "ask");
  workflow.connect("ask", "out");
  auto director = schedulers::testing::director_named(GetParam());
  RealClock clock;
  auto started = std::chrono::steady_clock::now();
  RunSummary summary = run_workflow(workflow, *director, clock);
  auto took = std::chrono::steady_clock::now() - started;

  // Every request was answered before the run ended: the doubled 1s and 2s, and the two 3s at
  // their deadline, which kept its time (300 ms) after the input had ended.
  std::vector<std::int64_t> answers;
  for (const Event& e : out.events)
    answers.push_back(e.token.as_int());
  std::sort(answers.begin(), answers.end());
  EXPECT_EQ(answers, (std::vector<std::int64_t>{-1, -1, 2, 2, 4, 4}));
  EXPECT_GE(took, std::chrono::milliseconds(300));
  // Each answer is the last child of the firing on its request: the wave goes on.
  for (const Event& e : out.events) {
    std::string wave = e.wave.to_string();
    EXPECT_TRUE(wave.ends_with(".1*")) << wave;
    EXPECT_EQ(std::count(wave.begin(), wave.end(), '.'), 2) << wave;
  }
  EXPECT_EQ(summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, OutsideWork,
                         ::testing::Values("fifo/1", "fifo/2", "qbs/1", "rr/2", "rb/1", "threaded"),
                         schedulers::testing::director_test_name);

}  // namespace
}  // namespace cwf
