// The end-of-wave signal: a firing that emits nothing sends a punctuation that plain actors pass
// on, so a wave window downstream of a dropping filter still sees its waves complete.
#include <gtest/gtest.h>

#include "runtime/execution/runner.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"
#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::AddConstant;
using testing::ListSource;
using testing::Repeat;

// One window per wave, once the wave is complete at the port.
WindowSpec wave_window() {
  return testing::window("1 wave", "1 wave");
}

class DropOdd : public Actor {
 public:
  DropOdd() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& c) override {
    if (c.token().as_int() % 2 == 0) c.emit(c.token());
  }
};

// Numbers its inputs 0, 1, 2, ... so that a splitter's copies can be told apart.
class Number : public Actor {
 public:
  Number() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& c) override { c.emit(c.token().as_int() * 10 + n_++ % 3); }

 private:
  std::int64_t n_ = 0;
};

// Records the sum of each window it fires on.
class WaveSums : public Actor {
 public:
  WaveSums() { add_input("in"); }
  void fire(FiringContext& c) override {
    std::int64_t sum = 0;
    for (const Event& e : c.window())
      sum += e.token.as_int();
    sums.push_back(sum);
  }
  std::vector<std::int64_t> sums;
};

class Punctuation : public ::testing::TestWithParam<std::string> {};

TEST_P(Punctuation, WaveWindowsCloseBehindADroppingFilter) {
  // Each source token v becomes v*10+0, v*10+1, v*10+2 (one wave); odd ones are dropped; +1000
  // after the filter. The wave window must see every wave complete although the filter emitted
  // nothing for some of its events.
  Workflow wf("punctuation");
  wf.emplace<ListSource>("src", std::vector<Value>{1, 2, 3});
  wf.emplace<Repeat>("split", 3);
  wf.emplace<Number>("number");
  wf.emplace<DropOdd>("even");
  wf.emplace<AddConstant>("shift", 1000);
  auto sums = std::make_unique<WaveSums>();
  WaveSums& sink = *sums;
  wf.add("sink", std::move(sums));
  wf.connect("src", "split");
  wf.connect("split", "number");
  wf.connect("number", "even");
  wf.connect("even", "shift");
  wf.connect("shift", "out", "sink", "in");
  wf.declare_window("sink", "in", wave_window());
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 4);
  RunSummary summary = run_workflow(wf, *director, clock);
  // Wave 1: 10, 11, 12 -> 10, 12 -> 2022; wave 2: 20, 22 (21 dropped) -> 2042; wave 3: 2062.
  EXPECT_EQ(sink.sums, (std::vector<std::int64_t>{2022, 2042, 2062}));
  // Punctuations are not data: the filter's and shift's output counts are the even events only.
  EXPECT_EQ(summary.actors[3].events_out, 6u);
  EXPECT_EQ(summary.actors[4].firings, 6u);
}

TEST_P(Punctuation, WavesCompleteBehindAnActorThatSplitsItsOutputsOverPorts) {
  // Even numbers leave on `even`, odd ones on `odd`; only `even` leads to the wave window. The
  // children of a firing are numbered across both ports, so the window learns of the ones that
  // went the other way through punctuations.
  class Route : public Actor {
   public:
    Route() {
      add_input("in");
      add_output("even");
      add_output("odd");
    }
    void fire(FiringContext& c) override {
      std::int64_t v = c.token().as_int();
      c.emit(v % 2 == 0 ? 0 : 1, c.token());
    }
  };
  Workflow wf("ports");
  wf.emplace<ListSource>("src", std::vector<Value>{1, 2, 3});
  wf.emplace<Repeat>("split", 3);
  wf.emplace<Number>("number");
  wf.emplace<Route>("route");
  wf.emplace<testing::Collect>("odds");
  auto sums = std::make_unique<WaveSums>();
  WaveSums& sink = *sums;
  wf.add("sink", std::move(sums));
  wf.connect("src", "split");
  wf.connect("split", "number");
  wf.connect("number", "route");
  wf.connect("route", "odd", "odds", "in");
  wf.connect("route", "even", "sink", "in");
  wf.declare_window("sink", "in", wave_window());
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 4);
  run_workflow(wf, *director, clock);
  EXPECT_EQ(sink.sums, (std::vector<std::int64_t>{10 + 12, 20 + 22, 30 + 32}));
}

INSTANTIATE_TEST_SUITE_P(Both, Punctuation, ::testing::ValuesIn(testing::kTestDirectors));

TEST(Punctuation, NotSentWhereNoWaveWindowNeedsIt) {
  Workflow wf("no-wave-window");
  wf.emplace<ListSource>("src", std::vector<Value>{1, 2, 3});
  wf.emplace<DropOdd>("even");
  wf.emplace<testing::Collect>("sink");
  wf.connect("src", "even");
  wf.connect("even", "sink");
  VirtualClock clock;
  auto director = testing::make_test_director("scheduled", 4);
  RunSummary summary = run_workflow(wf, *director, clock);
  EXPECT_EQ(summary.actors[2].events_in, 1u);  // only the data event, no punctuations
}

}  // namespace
}  // namespace cwf
