// What windowed receivers rely on from the engine: deadlines (a wake-up without new input),
// the end of input (open windows close before the run ends) and the expired-events route.
#include <gtest/gtest.h>

#include "runtime/execution/runner.hpp"
#include "runtime/execution/threaded_director.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"
#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::Collect;
using testing::ListSource;

// Records, per firing, the window size and the clock's time.
class WindowProbe : public Actor {
 public:
  WindowProbe() { add_input("in"); }
  void fire(FiringContext& c) override {
    sizes.push_back(c.window().size());
    clock_times.push_back(c.clock().now());
  }
  std::vector<std::size_t> sizes;
  std::vector<Timestamp> clock_times;
};

class ReceiverHooks : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Director> director() { return testing::make_test_director(GetParam(), 1); }
};

TEST_P(ReceiverHooks, OpenWindowsCloseAtTheEndOfInput) {
  Workflow wf("end-of-input");
  wf.emplace<ListSource>("src", std::vector<Value>{2, 4, 6}, std::vector<Timestamp>{1, 2, 3});
  auto probe = std::make_unique<WindowProbe>();
  WindowProbe& sink = *probe;
  wf.add("probe", std::move(probe));
  wf.connect("src", "out", "probe", "in");
  wf.declare_window("probe", "in", testing::window("10 tokens", "10 tokens"));  // never full
  VirtualClock clock;
  auto d = director();
  run_workflow(wf, *d, clock);
  EXPECT_EQ(sink.sizes, (std::vector<std::size_t>{3}));
}

TEST_P(ReceiverHooks, ADeadlineWakesTheActorWithoutNewInput) {
  // One event at t = 0; the next only at t = 60 s. The window's deadline must close the first
  // window at 5 s on the clock, long before the next event.
  class TwoEvents : public Actor {
   public:
    TwoEvents() { add_output("out"); }
    void fire(FiringContext& c) override {
      c.set_output_time(c.clock().now());
      c.emit(n_ * 2);
      if (++n_ < 2) c.fire_again_at(c.clock().now() + 60 * kSecond);
    }
    bool postfire(FiringContext&) override { return n_ < 2; }

   private:
    int n_ = 0;
  };
  Workflow wf("deadline");
  wf.emplace<TwoEvents>("src");
  auto probe = std::make_unique<WindowProbe>();
  WindowProbe& sink = *probe;
  wf.add("probe", std::move(probe));
  wf.connect("src", "out", "probe", "in");
  WindowSpec five_seconds = testing::window("5 s", "5 s");
  five_seconds.timeout = 0;  // [0, 5 s) closes as soon as the clock passes 5 s
  five_seconds.suppress_empty = true;
  wf.declare_window("probe", "in", five_seconds);
  if (GetParam() == "threaded") {
    // Real (scaled) time: 5 s of workflow time pass in 5 ms of wall time.
    ScaledClock clock(0, 1000.0);
    auto d = director();
    run_workflow(wf, *d, clock);
    ASSERT_EQ(sink.sizes, (std::vector<std::size_t>{1, 1}));
    EXPECT_GE(sink.clock_times[0], 5 * kSecond);
    EXPECT_LT(sink.clock_times[0], 60 * kSecond);
  } else {
    VirtualClock clock;
    auto d = director();
    run_workflow(wf, *d, clock);
    ASSERT_EQ(sink.sizes, (std::vector<std::size_t>{1, 1}));
    EXPECT_EQ(sink.clock_times[0], 5 * kSecond);  // the virtual clock jumped to the deadline
  }
}

TEST_P(ReceiverHooks, ExpiredEventsFollowTheExpiredRoute) {
  Workflow wf("expired");
  wf.emplace<ListSource>("src", std::vector<Value>{1, 2, 3, 4, 5});
  wf.emplace<WindowProbe>("probe");
  auto collect = std::make_unique<Collect>();
  Collect& expired = *collect;
  wf.add("expired", std::move(collect));
  wf.connect("src", "out", "probe", "in");
  // Windows {1}, {3}, {5}, deleted as used: the tokens stepped over expire.
  WindowSpec every_other = testing::window("1 token", "2 tokens");
  every_other.delete_used = true;
  wf.declare_window("probe", "in", every_other, "expired.in");
  VirtualClock clock;
  auto d = director();
  RunSummary summary = run_workflow(wf, *d, clock);
  EXPECT_EQ(expired.tokens(), (std::vector<Value>{2, 4}));
  EXPECT_EQ(summary.actors[1].expired, 2u);
}

INSTANTIATE_TEST_SUITE_P(Both, ReceiverHooks, ::testing::ValuesIn(testing::kTestDirectors));

}  // namespace
}  // namespace cwf
