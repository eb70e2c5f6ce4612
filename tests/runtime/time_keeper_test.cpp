#include "runtime/execution/time_keeper.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace cwf {
namespace {

struct Sent {
  int port;
  Event event;
};

TEST(TimeKeeper, OutputsOfAFiringAreChildWavesWithTheLastMarked) {
  TimeKeeper keeper;
  Event input{Value(1), 500, WaveTag(500, 3).child(2, false)};
  Window window{std::span<const Event>(&input, 1), input.time, &input.wave};
  std::vector<Sent> sent;
  auto send = [&](int port, Event&& e) { sent.push_back({port, std::move(e)}); };

  keeper.begin_firing(window);
  keeper.emit(0, Value("a"), send);
  keeper.emit(1, Value("b"), send);
  EXPECT_EQ(sent.size(), 1u);  // the latest output waits: it may be the last
  keeper.emit(0, Value("c"), send);
  keeper.end_firing(send);

  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[0].event.wave.to_string(), "500#3.2.1");
  EXPECT_EQ(sent[1].event.wave.to_string(), "500#3.2.2");
  EXPECT_EQ(sent[2].event.wave.to_string(), "500#3.2.3*");
  EXPECT_EQ(sent[1].port, 1);
  for (const Sent& s : sent)
    EXPECT_EQ(s.event.time, 500);
  EXPECT_EQ(keeper.children(), 3u);
}

TEST(TimeKeeper, AFiringWithoutOutputsSendsNothing) {
  TimeKeeper keeper;
  Event input{Value(1), 5, WaveTag(5, 1)};
  keeper.begin_firing(Window{std::span<const Event>(&input, 1), 5, &input.wave});
  int sent = 0;
  keeper.end_firing([&](int, Event&&) { ++sent; });
  EXPECT_EQ(sent, 0);
}

TEST(TimeKeeper, ADeferredOutputIsTheFiringsLastChildAndTheOnesBeforeItAreNotLast) {
  TimeKeeper keeper;
  keeper.track_ports(true);
  Event input{Value(1), 500, WaveTag(500, 3).child(2, false)};
  Window window{std::span<const Event>(&input, 1), input.time, &input.wave};
  std::vector<Sent> sent;
  auto send = [&](int port, Event&& e) { sent.push_back({port, std::move(e)}); };

  keeper.begin_firing(window);
  keeper.emit(1, Value("a"), send);
  keeper.emit(0, Value("b"), send);
  WaveTag later = keeper.defer(send);
  EXPECT_THROW(keeper.emit(0, Value("c"), send), std::logic_error);
  EXPECT_THROW(keeper.defer(send), std::logic_error);
  keeper.end_firing(send);

  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].event.wave.to_string(), "500#3.2.1");
  EXPECT_EQ(sent[1].event.wave.to_string(), "500#3.2.2");  // not last: the deferred one is
  EXPECT_EQ(later.to_string(), "500#3.2.3*");
  EXPECT_EQ(keeper.children(), 3u);
  EXPECT_EQ(keeper.child_ports(), (std::vector<int>{1, 0, -1}));  // its port is not known yet

  // The next firing starts afresh.
  keeper.begin_firing(window);
  keeper.emit(0, Value("d"), send);
  keeper.end_firing(send);
  EXPECT_EQ(sent.back().event.wave.to_string(), "500#3.2.1*");
}

TEST(TimeKeeper, OnlyAFiringOnAnEventCanDefer) {
  TimeKeeper keeper;
  auto send = [](int, Event&&) {};
  keeper.begin_source_firing(10);
  EXPECT_THROW(keeper.defer(send), std::logic_error);
  Window timer;  // a timer's firing: no input wave
  timer.time = 20;
  keeper.begin_firing(timer);
  EXPECT_THROW(keeper.defer(send), std::logic_error);
}

TEST(TimeKeeper, SetOutputTimeAppliesToLaterOutputsOnly) {
  TimeKeeper keeper;
  Event input{Value(1), 100, WaveTag(100, 1)};
  keeper.begin_firing(Window{std::span<const Event>(&input, 1), 100, &input.wave});
  std::vector<Event> sent;
  auto send = [&](int, Event&& e) { sent.push_back(std::move(e)); };
  keeper.emit(0, Value(1), send);
  keeper.set_output_time(250);
  keeper.emit(0, Value(2), send);
  keeper.end_firing(send);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].time, 100);
  EXPECT_EQ(sent[1].time, 250);
}

TEST(TimeKeeper, EverySourceOutputStartsItsOwnWave) {
  TimeKeeper first_source(0), second_source(1);
  std::vector<Event> sent;
  auto send = [&](int, Event&& e) { sent.push_back(std::move(e)); };
  first_source.begin_source_firing(42);
  first_source.emit(0, Value(1), send);
  first_source.emit(0, Value(2), send);
  second_source.begin_source_firing(42);
  second_source.emit(0, Value(3), send);
  ASSERT_EQ(sent.size(), 3u);
  for (const Event& e : sent) {
    EXPECT_EQ(e.wave.depth(), 0);
    EXPECT_EQ(e.wave.root_time(), 42);
  }
  // Equal timestamps, distinct waves, ordered by emission within a source.
  EXPECT_LT(sent[0].wave, sent[1].wave);
  EXPECT_NE(sent[0].wave, sent[2].wave);
  EXPECT_NE(sent[1].wave, sent[2].wave);
}

}  // namespace
}  // namespace cwf
