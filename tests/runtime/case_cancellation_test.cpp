// Case cancellation (CWP4) in the receivers: a cancelled case's events leave a FIFO queue and
// every kind of window storage (the ready window included), and its events that arrive later are
// not queued; wave windows still complete the waves whose events were removed.
#include <gtest/gtest.h>

#include <memory>

#include "runtime/execution/case_cancellations.hpp"
#include "runtime/execution/receiver.hpp"
#include "runtime/expressions/expression.hpp"
#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::Ints;
using testing::ints;
using testing::show;
using testing::window;
using testing::WindowHarness;

Value rec(const char* k, int v) {
  return Value::record({{"k", Value(k)}, {"v", Value(v)}});
}
// The case of the events whose /k is `k`.
CaseId key_case(const char* k) {
  CaseId c;
  c.key = Value(k);
  c.match = std::make_shared<const Expression>(Expression::compile("/k"));
  return c;
}
CaseId wave_case(int n) {
  CaseId c;
  c.wave = WaveRoot{n, 1};
  return c;
}

TEST(CaseMatch, AWaveCaseHoldsTheWaveAndItsDescendantsAKeyCaseWhatMatchGives) {
  Event child{rec("a", 1), 0, WaveTag(2, 1).child(3, false).child(1, true)};
  EXPECT_TRUE(wave_case(2).matches(child));
  EXPECT_FALSE(wave_case(3).matches(child));
  EXPECT_TRUE(key_case("a").matches(child));
  EXPECT_FALSE(key_case("b").matches(child));
  CaseId null_key = key_case("a");
  null_key.key = Value();
  EXPECT_FALSE(null_key.matches(Event{Value::record({{"v", Value(1)}}), 0, {}}));
  EXPECT_EQ(wave_case(2).describe(), "wave 2#1");
  EXPECT_EQ(key_case("a").describe(), "key \"a\"");
}

TEST(FifoCancellation, QueuedEventsOfTheCaseBecomePunctuationsInPlace) {
  FifoReceiver fifo;
  auto producer = fifo.make_producer();
  int v = 0;
  for (const char* k : {"a", "b", "a", "b"})
    fifo.enqueue(Event{rec(k, v++), v, WaveTag(v, 1)}, *producer);
  fifo.drain();
  EXPECT_EQ(fifo.cancel(key_case("b")), 2u);
  std::vector<std::string> seen;
  while (fifo.has_window()) {
    Window w = fifo.front_window();
    const Event& e = w.events.front();
    seen.push_back(e.wave.is_punctuation() ? "punctuation " + e.wave.to_string()
                                           : e.token.to_json());
    fifo.finish_window(true, true);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{R"({"k":"a","v":0})", "punctuation 2#1!",
                                            R"({"k":"a","v":2})", "punctuation 4#1!"}));
}

TEST(FifoCancellation, EventsOfACancelledCaseThatArriveLaterAreNotQueued) {
  FifoReceiver fifo;
  auto producer = fifo.make_producer();
  CaseId b = key_case("b");
  std::vector<const CaseId*> cancelled{&b};
  fifo.set_cancelled_cases(&cancelled);
  fifo.enqueue(Event{rec("b", 1), 1, WaveTag(1, 1)}, *producer);
  fifo.enqueue(Event{rec("a", 2), 2, WaveTag(2, 1)}, *producer);
  fifo.drain();
  ASSERT_TRUE(fifo.has_window());
  EXPECT_TRUE(fifo.front_window().events.front().wave.is_punctuation());
  fifo.finish_window(false, true);
  ASSERT_TRUE(fifo.has_window());
  EXPECT_EQ(fifo.front_window().events.front().token.to_json(), R"({"k":"a","v":2})");
}

// The values of the expired records.
std::vector<int> expired_values(const WindowHarness& w) {
  std::vector<int> out;
  for (const Event& e : w.expired)
    out.push_back(static_cast<int>(e.token.field("v")->as_int()));
  return out;
}

// As after deleting used events: a window starts at the arrival its step says and holds the
// next `size` events still queued.
TEST(WindowCancellation, TokenWindowsLoseTheCaseEvents) {
  WindowHarness w(window("3 tokens", "3 tokens"));
  int v = 0;
  for (const char* k : {"a", "b", "a", "b", "a", "a"})
    w.push(rec(k, v), v), ++v;
  EXPECT_EQ(w.cancel(key_case("b")), 2u);
  EXPECT_EQ(w.buffered(), 4u);
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"a:0,2,4", "a:4,5"}));
  EXPECT_EQ(expired_values(w), (std::vector<int>{0, 2, 4, 5}));  // cancelled ones do not expire
}

TEST(WindowCancellation, AReadyWindowIsSelectedAgainWithoutTheCase) {
  WindowHarness w(window("3 tokens", "3 tokens"));
  w.push(rec("a", 0), 0);
  w.push(rec("b", 1), 1);
  w.push(rec("a", 2), 2);
  w.advance(2, false);
  ASSERT_TRUE(w.has_window());
  EXPECT_EQ(w.cancel(key_case("b")), 1u);
  EXPECT_TRUE(w.at(2).empty());  // two tokens left: the window is no longer complete
  w.push(rec("a", 3), 3);
  EXPECT_EQ(show(w.at(3)), (std::vector<std::string>{"a:0,2,3"}));
}

TEST(WindowCancellation, TimeWindowsLoseTheCaseEvents) {
  WindowHarness w(window("10 ns", "10 ns"));
  w.push(rec("a", 1), 1);
  w.push(rec("b", 2), 2);
  w.push(rec("a", 5), 5);
  w.push(rec("b", 12), 12);
  w.push(rec("a", 15), 15);
  EXPECT_EQ(w.cancel(key_case("b")), 2u);
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"a:1,5", "a:15"}));
}

TEST(WindowCancellation, SlidingWindowsLoseTheCaseEventsAndTheWindowsTheyStepped) {
  WindowHarness w(window("2 tokens", ""));
  int v = 0;
  for (const char* k : {"a", "b", "a", "b", "a"})
    w.push(rec(k, v), v), ++v;
  EXPECT_EQ(w.cancel(key_case("b")), 2u);
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"a:0", "a:0,2", "a:2,4"}));
}

TEST(WindowCancellation, GroupedWindowsLoseTheCaseInEveryGroup) {
  WindowSpec spec = window("2 tokens", "2 tokens");
  spec.group_by = {"/v % 2"};
  WindowHarness w(spec);
  int v = 0;
  for (const char* k : {"a", "b", "b", "a", "a", "a"})
    w.push(rec(k, v), v), ++v;
  EXPECT_EQ(w.cancel(key_case("b")), 2u);
  EXPECT_EQ(show(w.end()), (std::vector<std::string>{"a:0,4", "a:4", "a:3,5", "a:5"}));
}

// Wave n's i-th of `of` items, token n*10 + i.
void item(WindowHarness& w, int n, std::uint32_t i, std::uint32_t of) {
  w.push(n * 10 + static_cast<int>(i), n, WaveTag(n, 1).child(i, i == of));
}

TEST(WindowCancellation, AWaveWindowWaitsNoLongerForACancelledWave) {
  WindowSpec spec = window("1 wave", "1 wave");
  spec.delete_used = true;
  WindowHarness w(spec);
  item(w, 1, 1, 2);
  item(w, 1, 2, 2);
  item(w, 2, 1, 2);  // wave 2's second item is still on its way
  item(w, 3, 1, 1);
  EXPECT_EQ(ints(w.at(3)), (Ints{{11, 12}}));  // wave 3 waits behind wave 2
  EXPECT_EQ(w.cancel(wave_case(2)), 1u);
  // What the cell makes of the late item of the cancelled wave: a punctuation.
  w.push(Value(), 2, WaveTag(2, 1).child(2, true).as_punctuation());
  EXPECT_EQ(ints(w.at(3)), (Ints{{31}}));
  EXPECT_EQ(w.open_waves(), 0u);  // nothing is kept of the cancelled wave
  EXPECT_EQ(w.wave_records(), 0u);
}

}  // namespace
}  // namespace cwf
