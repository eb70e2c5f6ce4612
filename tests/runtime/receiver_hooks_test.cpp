// What windowed receivers rely on from the engine: deadlines (a wake-up without new input),
// the end of input (open windows close before the run ends) and the expired-events route.
#include <gtest/gtest.h>

#include "runtime/actor_cell.hpp"
#include "runtime/runner.hpp"
#include "runtime/threaded_director.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"

namespace cwf {
namespace {

using testing::Collect;
using testing::ListSource;

// Holds events and releases them all as one window at `first event time + deadline`, or at the
// end of input; with `expire_odd`, odd tokens leave through the expired route instead.
class BatchReceiver final : public Receiver {
 public:
  BatchReceiver(Duration deadline, bool expire_odd)
      : deadline_(deadline), expire_odd_(expire_odd) {}
  bool has_window() const override { return ready_; }
  Window front_window() override {
    return Window{window_, window_.back().time, &window_.back().wave};
  }
  void finish_window(bool, bool) override {
    window_.clear();
    ready_ = false;
  }
  std::size_t buffered() const override { return held_.size() + window_.size(); }
  void advance(Timestamp now, bool end_of_input) override {
    if (held_.empty() || ready_) return;
    Timestamp due = held_.front().time + deadline_;
    if (end_of_input || now >= due) {
      window_.swap(held_);
      ready_ = true;
    } else {
      owner().request_wakeup(due);
    }
  }

 protected:
  void accept(Event&& event, std::size_t) override {
    if (expire_odd_ && event.token.as_int() % 2 != 0)
      owner().send_expired(port(), std::move(event));
    else
      held_.push_back(std::move(event));
  }

 private:
  Duration deadline_;
  bool expire_odd_;
  bool ready_ = false;
  std::vector<Event> held_, window_;
};

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

ReceiverFactory batch(Duration deadline, bool expire_odd = false) {
  return [=] { return std::make_unique<BatchReceiver>(deadline, expire_odd); };
}

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
  wf.connect("src", "out", "probe", "in", batch(kNever / 2), "batch");
  VirtualClock clock;
  auto d = director();
  run_workflow(wf, *d, clock);
  EXPECT_EQ(sink.sizes, (std::vector<std::size_t>{3}));
}

TEST_P(ReceiverHooks, ADeadlineWakesTheActorWithoutNewInput) {
  // One event at t = 0; the next only at t = 60 s. The receiver's 5 s deadline must close the
  // first window at 5 s on the clock, long before the next event.
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
  wf.connect("src", "out", "probe", "in", batch(5 * kSecond), "batch");
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
  Connection c{{0, 0}, {1, 0}, batch(kNever / 2, true), "batch", {}, PortAddress{2, 0}};
  wf.connect(std::move(c));
  VirtualClock clock;
  auto d = director();
  RunSummary summary = run_workflow(wf, *d, clock);
  EXPECT_EQ(expired.tokens(), (std::vector<Value>{1, 3, 5}));
  EXPECT_EQ(summary.actors[1].expired, 3u);
}

INSTANTIATE_TEST_SUITE_P(Both, ReceiverHooks, ::testing::ValuesIn(testing::kTestDirectors));

}  // namespace
}  // namespace cwf
