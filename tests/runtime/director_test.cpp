#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "runtime/execution/execution.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/windows/window_spec.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"
#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::AddConstant;
using testing::Collect;
using testing::ListSource;
using testing::Repeat;

std::unique_ptr<Director> make(const std::string& kind) {
  return testing::make_test_director(kind, 1);
}

class Directors : public ::testing::TestWithParam<std::string> {};

TEST_P(Directors, PlainActorOutputsAreStampedByTheTimeKeeper) {
  Workflow wf("stamping");
  wf.emplace<ListSource>("src", std::vector<Value>{10, 20}, std::vector<Timestamp>{1000, 2000});
  wf.emplace<Repeat>("split", 3);
  wf.emplace<AddConstant>("inc", 1);
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("src", "split");
  wf.connect("split", "inc");
  wf.connect("inc", "sink");
  VirtualClock clock;
  auto director = make(GetParam());
  RunSummary summary = run_workflow(wf, *director, clock);

  ASSERT_EQ(sink.events.size(), 6u);
  std::vector<std::string> waves;
  for (const Event& e : sink.events)
    waves.push_back(e.wave.to_string());
  // Each source token is a wave root (time + per-source sequence); the splitter's three outputs
  // are t.1, t.2, t.3 (last), and the 1:1 actor adds one more level, last on its only output.
  std::uint64_t s0 = sink.events[0].wave.root_sequence();
  auto root = [&](Timestamp t, std::uint64_t s) {
    return std::to_string(t) + "#" + std::to_string(s);
  };
  EXPECT_EQ(waves, (std::vector<std::string>{
                       root(1000, s0) + ".1.1*", root(1000, s0) + ".2.1*",
                       root(1000, s0) + ".3*.1*", root(2000, s0 + 1) + ".1.1*",
                       root(2000, s0 + 1) + ".2.1*", root(2000, s0 + 1) + ".3*.1*"}));
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(sink.events[i].time, i < 3 ? 1000 : 2000);
    EXPECT_EQ(sink.events[i].token, Value(i < 3 ? 11 : 21));
  }
  ASSERT_EQ(summary.actors.size(), 4u);
  EXPECT_EQ(summary.actors[1].events_in, 2u);
  EXPECT_EQ(summary.actors[1].events_out, 6u);
  EXPECT_EQ(summary.actors[1].firings, 2u);
  EXPECT_EQ(summary.actors[3].events_in, 6u);
}

TEST_P(Directors, FanOutAndFanInDeliverEverythingInProducerOrder) {
  // src -> a (+1) -> sink and src -> b (+1'000'000) -> sink: a diamond.
  constexpr int kEvents = 5000;
  constexpr std::int64_t kOffsetB = 1'000'000;
  std::vector<Value> input;
  for (int i = 0; i < kEvents; ++i)
    input.emplace_back(i);
  Workflow wf("diamond");
  wf.emplace<ListSource>("src", input);
  wf.emplace<AddConstant>("a", 1);
  wf.emplace<AddConstant>("b", kOffsetB);
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("src", "a");
  wf.connect("src", "b");
  wf.connect("a", "sink");
  wf.connect("b", "sink");
  VirtualClock clock;
  auto director = make(GetParam());
  run_workflow(wf, *director, clock);
  ASSERT_EQ(sink.events.size(), 2u * kEvents);
  // The two branches interleave at the sink, but each arrives complete and in its own order.
  std::vector<std::int64_t> from_a, from_b;
  for (const Event& e : sink.events) {
    std::int64_t v = e.token.as_int();
    if (v >= kOffsetB)
      from_b.push_back(v - kOffsetB);
    else
      from_a.push_back(v - 1);
  }
  ASSERT_EQ(from_a.size(), static_cast<std::size_t>(kEvents));
  ASSERT_EQ(from_b.size(), static_cast<std::size_t>(kEvents));
  for (int i = 0; i < kEvents; ++i) {
    ASSERT_EQ(from_a[static_cast<std::size_t>(i)], i);
    ASSERT_EQ(from_b[static_cast<std::size_t>(i)], i);
  }
}

TEST_P(Directors, AStopRequestDrainsAndEnds) {
  // An endless source stops at the request; everything it emitted still reaches the sink.
  class Endless : public Actor {
   public:
    Endless() { add_output("out"); }
    void fire(FiringContext& c) override { c.emit(n_++); }

   private:
    std::int64_t n_ = 0;
  };
  Workflow wf("endless");
  wf.emplace<Endless>("src");
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("src", "sink");
  RealClock clock;
  RunOptions options;
  options.run_for = 50 * kMillisecond;
  auto director = make(GetParam());
  RunSummary summary = run_workflow(wf, *director, clock, options);
  EXPECT_GT(sink.events.size(), 0u);
  EXPECT_EQ(summary.actors[0].events_out, sink.events.size());
  for (std::size_t i = 0; i < sink.events.size(); ++i)
    ASSERT_EQ(sink.events[i].token, Value(static_cast<std::int64_t>(i)));
}

TEST_P(Directors, PacedSourceFiresAtItsTimesOnTheClock) {
  Workflow wf("paced");
  wf.emplace<testing::PacedSource>("src", 3, 10 * kSecond);
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("src", "sink");
  VirtualClock clock(5 * kSecond);
  auto director = make(GetParam());
  run_workflow(wf, *director, clock);
  EXPECT_EQ(sink.tokens(), (std::vector<Value>{5 * kSecond, 15 * kSecond, 25 * kSecond}));
}

TEST_P(Directors, APacedSourceOnAVirtualClockWaitsForLongFiringsElsewhere) {
  // While one worker runs a long firing, another that finds only a paced source's timer must
  // wait for that firing: on a virtual clock the timer is not due until the workflow is idle.
  std::vector<Value> work(40, Value(1));
  Workflow wf("paced-and-busy");
  wf.emplace<testing::PacedSource>("paced", 3, 10 * kSecond);
  wf.emplace<ListSource>("list", work);
  wf.emplace<testing::SlowPass>("sleepy", std::chrono::milliseconds(2));
  auto ticks = std::make_unique<Collect>();
  Collect& tick_sink = *ticks;
  wf.add("ticks", std::move(ticks));
  auto done = std::make_unique<Collect>();
  Collect& work_sink = *done;
  wf.add("done", std::move(done));
  wf.connect("paced", "ticks");
  wf.connect("list", "sleepy");
  wf.connect("sleepy", "done");
  VirtualClock clock(5 * kSecond);
  auto director = make(GetParam());
  run_workflow(wf, *director, clock);
  EXPECT_EQ(tick_sink.tokens(), (std::vector<Value>{5 * kSecond, 15 * kSecond, 25 * kSecond}));
  EXPECT_EQ(work_sink.events.size(), work.size());
}

// Records the workflow clock's time at each event it receives.
class ClockReader : public Actor {
 public:
  ClockReader() { add_input("in"); }
  void fire(FiringContext& context) override { seen_at.push_back(context.clock().now()); }
  std::vector<Timestamp> seen_at;
};

TEST_P(Directors, AVirtualClockMovesOnlyWhenNothingElseCanHappen) {
  // The work is there from the start, so all of it happens at the start time: a paced source
  // waiting for a later time must not move the clock past work still queued or running.
  std::vector<Value> work(40, Value(1));
  Workflow wf("paced-and-busy");
  wf.emplace<testing::PacedSource>("paced", 3, 10 * kSecond);
  wf.emplace<ListSource>("list", work);
  wf.emplace<testing::SlowPass>("sleepy", std::chrono::milliseconds(1));
  auto ticks = std::make_unique<Collect>();
  Collect& tick_sink = *ticks;
  wf.add("ticks", std::move(ticks));
  auto reader = std::make_unique<ClockReader>();
  ClockReader& work_sink = *reader;
  wf.add("done", std::move(reader));
  wf.connect("paced", "ticks");
  wf.connect("list", "sleepy");
  wf.connect("sleepy", "done");
  VirtualClock clock(5 * kSecond);
  auto director = make(GetParam());
  run_workflow(wf, *director, clock);
  EXPECT_EQ(tick_sink.tokens(), (std::vector<Value>{5 * kSecond, 15 * kSecond, 25 * kSecond}));
  EXPECT_EQ(work_sink.seen_at, std::vector<Timestamp>(work.size(), 5 * kSecond));
  EXPECT_EQ(clock.now(), 25 * kSecond);
}

TEST_P(Directors, OnAVirtualClockAWindowDeadlineComesBeforeALaterSourceTime) {
  // Ticks at 5 s and 100 s into one-second windows: [5 s, 6 s) closes at its formation timeout,
  // 7 s on the clock, not when the clock has jumped to the next tick.
  Workflow wf("deadline-before-tick");
  wf.emplace<testing::PacedSource>("paced", 2, 95 * kSecond);
  auto reader = std::make_unique<ClockReader>();
  ClockReader& windows = *reader;
  wf.add("windows", std::move(reader));
  WindowSpec spec = testing::window("1 s", "1 s");
  spec.suppress_empty = true;
  wf.connect("paced", "out", "windows", "in");
  wf.declare_window("windows", "in", spec);
  VirtualClock clock(5 * kSecond);
  auto director = make(GetParam());
  run_workflow(wf, *director, clock);
  EXPECT_EQ(windows.seen_at, (std::vector<Timestamp>{7 * kSecond, 100 * kSecond}));
}

TEST_P(Directors, OnAVirtualClockEachWindowAfterATimedOutOneTimesOutInTurn) {
  // Ticks at 5 s and 9.5 s into one-second windows, empty ones shown: [5 s, 6 s) times out at
  // 7 s; the empty [6 s, 7 s) and [7 s, 8 s) that follow time out at 8 s and 9 s on the clock, each
  // at its own end + size, not together when the next tick comes. The tick at 9.5 s closes
  // [8 s, 9 s) and, at the end of input, its own window [9 s, 10 s).
  Workflow wf("timeouts-in-turn");
  wf.emplace<testing::PacedSource>("paced", 2, 4500 * kMillisecond);
  auto reader = std::make_unique<ClockReader>();
  ClockReader& windows = *reader;
  wf.add("windows", std::move(reader));
  WindowSpec spec = testing::window("1 s", "1 s");
  wf.connect("paced", "out", "windows", "in");
  wf.declare_window("windows", "in", spec);
  VirtualClock clock(5 * kSecond);
  auto director = make(GetParam());
  run_workflow(wf, *director, clock);
  EXPECT_EQ(windows.seen_at, (std::vector<Timestamp>{7 * kSecond, 8 * kSecond, 9 * kSecond,
                                                     9500 * kMillisecond, 9500 * kMillisecond}));
}

// Records the clock's time and the number of events of each window it is fired on.
class WindowClock : public Actor {
 public:
  WindowClock() { add_input("in"); }
  void fire(FiringContext& context) override {
    seen.push_back({context.clock().now(), static_cast<Timestamp>(context.window().size())});
  }
  std::vector<std::pair<Timestamp, Timestamp>> seen;
};

TEST_P(Directors, OnAVirtualClockAPacedSourceReleasesBeforeALaterDeadlineEveryTime) {
  // Ticks at 5, 5.8 and 6.6 s into one-second windows with a formation timeout of half a size:
  // [5 s, 6 s) closes at 6.5 s. The clock moves to 5.8 s, and the tick released then is in that
  // window before the clock moves on to 6.5 s. [6 s, 7 s) closes at the end of input.
  // Two workers once moved the clock on while the woken source was still on one worker's own
  // list of wake-ups (not yet counted as busy) during that worker's progress turn, which releases
  // the lock: a slow progress callback at 5.8 s, longer than a parked worker's longest sleep,
  // lets the other worker in then (when the worker that moved the clock is the one with the
  // progress turn: about every other run).
  for (int run = 0; run < 20; ++run) {
    VirtualClock clock(5 * kSecond);
    RunOptions options;
    options.progress_interval = 0;
    bool slept = false;
    options.progress = [&] {
      if (clock.now() != 5800 * kMillisecond || slept) return;
      slept = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
    };
    Workflow wf("release-before-deadline");
    wf.emplace<testing::PacedSource>("paced", 3, 800 * kMillisecond);
    auto reader = std::make_unique<WindowClock>();
    WindowClock& windows = *reader;
    wf.add("windows", std::move(reader));
    WindowSpec spec = testing::window("1 s", "1 s");
    spec.suppress_empty = true;
    spec.timeout = 0.5;
    wf.connect("paced", "out", "windows", "in");
    wf.declare_window("windows", "in", spec);
    auto director = make(GetParam());
    run_workflow(wf, *director, clock, options);
    ASSERT_EQ(windows.seen, (std::vector<std::pair<Timestamp, Timestamp>>{
                                {6500 * kMillisecond, 2}, {6600 * kMillisecond, 1}}))
        << "run " << run;
  }
}

// For each event, asks to be fired 3 s later and then reports the clock's time and the firing's
// time (Ptolemy's fireAt, for an actor that is not a source).
class Reminder : public Actor {
 public:
  Reminder() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& c) override {
    if (c.port() == 0) {
      c.fire_again_at(c.time() + 3 * kSecond);
      return;
    }
    EXPECT_TRUE(c.window().empty());
    c.emit(Value::array({c.clock().now(), c.time()}));
  }
};

TEST_P(Directors, AnActorThatIsNotASourceIsFiredAtTheTimeItAskedFor) {
  // Ticks at 5, 15 and 25 s: each is reminded of 3 s later, at 8 and 18 s on the clock, before
  // the next tick moves it on. After the last tick the input has ended: the reminder for 28 s
  // comes at once, at 25 s on the clock, still stamped 28 s.
  Workflow wf("reminders");
  wf.emplace<testing::PacedSource>("paced", 3, 10 * kSecond);
  wf.emplace<Reminder>("remind");
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("paced", "remind");
  wf.connect("remind", "sink");
  VirtualClock clock(5 * kSecond);
  auto director = make(GetParam());
  run_workflow(wf, *director, clock);
  std::vector<std::string> seen;
  for (const Value& v : sink.tokens())
    seen.push_back(v.to_json());
  EXPECT_EQ(seen, (std::vector<std::string>{"[8000000000,8000000000]", "[18000000000,18000000000]",
                                            "[25000000000,28000000000]"}));
  for (const Event& e : sink.events)
    EXPECT_EQ(e.time, e.token.as_array()[1].as_int());
}

TEST_P(Directors, AtTheEndOfInputTheTimesAskedForAreDueAtOnce) {
  // Nothing paces the list: the input ends at the start time, and the reminders for 3 s and 4 s
  // later come then, in the order of their times.
  Workflow wf("reminders-at-end");
  wf.emplace<ListSource>("list", std::vector<Value>{1, 2}, std::vector<Timestamp>{1 * kSecond, 0});
  wf.emplace<Reminder>("remind");
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("list", "remind");
  wf.connect("remind", "sink");
  VirtualClock clock(0);
  auto director = make(GetParam());
  run_workflow(wf, *director, clock);
  std::vector<std::string> seen;
  for (const Value& v : sink.tokens())
    seen.push_back(v.to_json());
  EXPECT_EQ(seen, (std::vector<std::string>{"[0,3000000000]", "[0,4000000000]"}));
}

TEST_P(Directors, ASubWorkflowRunLeavesTheVirtualClockToItsParent) {
  // A composite's per-firing run (its input goes on) shares the parent's clock, and the parent
  // may have events before the next inner time: the run ends when only time could move it on,
  // with the clock where it was and the next inner time told by next_timer(). A paced source
  // stands for the inner deadline: it fires at 5 s and then waits for 15 s.
  Workflow wf("inner");
  wf.emplace<testing::PacedSource>("paced", 3, 10 * kSecond);
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("paced", "sink");
  VirtualClock clock(5 * kSecond);
  Execution execution(wf, clock);
  execution.initialize();
  auto director = make(GetParam());
  director->start(execution);
  execution.wake_sources();
  RunOptions options;
  options.end_input_when_quiescent = false;
  director->run(options);
  EXPECT_EQ(clock.now(), 5 * kSecond);
  EXPECT_EQ(director->next_timer(), 15 * kSecond);
  EXPECT_EQ(sink.tokens(), (std::vector<Value>{5 * kSecond}));
  director->shutdown();
  execution.wrapup();
}

INSTANTIATE_TEST_SUITE_P(Both, Directors, ::testing::ValuesIn(testing::kTestDirectors));

}  // namespace
}  // namespace cwf

namespace cwf {
namespace {

TEST(FiringContext, TellsWhichOutputsAreConnected) {
  class TwoOutputs : public Actor {
   public:
    TwoOutputs() {
      add_input("in");
      add_output("main");
      add_output("side");
    }
    void fire(FiringContext& c) override {
      seen_main = c.connected(0);
      seen_side = c.connected(1);
    }
    bool seen_main = false, seen_side = true;
  };
  Workflow wf("connected");
  wf.emplace<testing::ListSource>("src", std::vector<Value>{1});
  auto actor = std::make_unique<TwoOutputs>();
  TwoOutputs& probe = *actor;
  wf.add("probe", std::move(actor));
  wf.emplace<testing::Collect>("sink");
  wf.connect("src", "probe");
  wf.connect("probe", "main", "sink", "in");
  VirtualClock clock;
  ThreadedDirector director;
  run_workflow(wf, director, clock);
  EXPECT_TRUE(probe.seen_main);
  EXPECT_FALSE(probe.seen_side);
}

// An actor that takes each token of its window and records what is left in the window after.
class Taker : public Actor {
 public:
  Taker() { add_input("in"); }
  void fire(FiringContext& c) override {
    for (std::size_t i = 0; i < c.window().size(); ++i) {
      taken.push_back(c.take(i));
      left.push_back(c.window()[i].token);
    }
    try {
      (void)c.take(c.window().size());
    } catch (const std::out_of_range&) {
      ++out_of_range;
    }
  }
  int out_of_range = 0;
  std::vector<Value> taken, left;
};

TEST(FiringContext, TakeMovesTokensOutOfAFifoWindowAndCopiesFromAWindowThatKeepsThem) {
  for (bool sliding : {false, true}) {
    SCOPED_TRACE(sliding ? "sliding window of 2" : "fifo");
    Workflow wf("take");
    wf.emplace<testing::ListSource>("src", std::vector<Value>{1, 2, 3});
    auto actor = std::make_unique<Taker>();
    Taker& taker = *actor;
    wf.add("taker", std::move(actor));
    if (sliding) {
      WindowSpec spec = testing::window("2 tokens", "1 token");
      wf.connect("src", "out", "taker", "in");
      wf.declare_window("taker", "in", spec);
    } else {
      wf.connect("src", "taker");
    }
    VirtualClock clock;
    auto director = make("scheduled");
    run_workflow(wf, *director, clock);
    std::vector<Value> expected_taken =
        sliding ? std::vector<Value>{1, 2, 2, 3, 3} : std::vector<Value>{1, 2, 3};
    EXPECT_EQ(taker.taken, expected_taken);
    // FIFO: the window's event gave its token away; sliding: the event stays for the next window.
    std::vector<Value> expected_left =
        sliding ? expected_taken : std::vector<Value>{Value(), Value(), Value()};
    EXPECT_EQ(taker.left, expected_left);
    EXPECT_EQ(taker.out_of_range, 3);  // every firing (3 in both cases) asked past the end
  }
}

}  // namespace
}  // namespace cwf

namespace cwf {
namespace {

// More events than one drain takes (65,536) arrive between two runs of the consumer: none may
// be stranded in its inbox when the run ends.
class Burst : public Actor {
 public:
  explicit Burst(std::int64_t n) : n_(n) { add_output("out"); }
  void fire(FiringContext& c) override {
    for (std::int64_t i = 0; i < n_; ++i)
      c.emit(i);
  }
  bool postfire(FiringContext&) override { return false; }

 private:
  std::int64_t n_;
};

class CountOnly : public Actor {
 public:
  CountOnly() { add_input("in"); }
  void fire(FiringContext& c) override { count += c.window().size(); }
  std::size_t count = 0;
};

class LargeBursts : public ::testing::TestWithParam<std::string> {};

TEST_P(LargeBursts, EveryEventOfABurstLargerThanOneDrainArrives) {
  constexpr std::int64_t kEvents = 200'000;
  Workflow wf("burst");
  wf.emplace<Burst>("src", kEvents);
  wf.emplace<testing::AddConstant>("pass", 0);
  auto counter = std::make_unique<CountOnly>();
  CountOnly& sink = *counter;
  wf.add("sink", std::move(counter));
  wf.connect("src", "pass");
  wf.connect("pass", "sink");
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 0xffffffffu);
  RunSummary summary = run_workflow(wf, *director, clock);
  EXPECT_EQ(sink.count, static_cast<std::size_t>(kEvents));
  EXPECT_EQ(summary.actors[1].events_in, static_cast<std::uint64_t>(kEvents));
}

INSTANTIATE_TEST_SUITE_P(Both, LargeBursts, ::testing::ValuesIn(testing::kTestDirectors));

}  // namespace
}  // namespace cwf
