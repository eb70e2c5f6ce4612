// The order in which a port hands out the ready windows of its groups: by window time, ties by
// the arrival of each window's last event. It must not depend on how arrivals are batched
// between firings, which is what differs between directors, worker counts and schedulers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tests/sanitizer_build.hpp"
#include "window_harness.hpp"
#include "window_streams.hpp"

namespace cwf {
namespace {

using testing::Kind;
using testing::show;
using testing::window;
using testing::WindowHarness;

const auto rec = &testing::keyed;

WindowSpec by_key(const std::string& size, const std::string& step) {
  WindowSpec spec = window(size, step);
  spec.group_by = {"/k"};
  return spec;
}

// The thesis's segment-change window ({2 tokens, step 1 token, group-by: car}): a's second window
// is completed by a2, which arrived before b1 completed b's first; both end at time 2.
TEST(WindowOrder, EqualTimesComeInTheOrderTheirLastEventsArrived) {
  const std::vector<std::string> expected = {"a:0,1", "a:1,2", "b:0,1"};
  {
    SCOPED_TRACE("the actor fires between a1 and a2");
    WindowHarness w(by_key("2 tokens", "1 token"));
    w.push(rec("a", 0), 1);
    w.push(rec("a", 1), 1);
    std::vector<std::string> out = show(w.at(1));
    w.push(rec("a", 2), 2);
    w.push(rec("b", 0), 2);
    w.push(rec("b", 1), 2);
    for (const std::string& s : show(w.at(2)))
      out.push_back(s);
    EXPECT_EQ(out, expected);
  }
  {
    SCOPED_TRACE("everything arrives before the actor fires");
    WindowHarness w(by_key("2 tokens", "1 token"));
    w.push(rec("a", 0), 1);
    w.push(rec("a", 1), 1);
    w.push(rec("a", 2), 2);
    w.push(rec("b", 0), 2);
    w.push(rec("b", 1), 2);
    // a's second window is formed only once its first was fired, after b's was ready: it still
    // comes first.
    EXPECT_EQ(show(w.at(2)), expected);
  }
}

TEST(WindowOrder, AnEmptyWindowComesAfterThoseWithEventsOfItsTime) {
  WindowHarness w(by_key("10 ns", "10 ns"));
  w.push(rec("b", 1), 1);
  w.push(rec("a", 2), 2);
  w.push(rec("a", 12), 12);
  EXPECT_EQ(show(w.at(12)), (std::vector<std::string>{"b:1", "a:2"}));
  // [10, 20) closes: b's is empty, and b has the lower index and the newer event.
  w.push(rec("b", 25), 25);
  w.push(rec("a", 26), 26);
  EXPECT_EQ(show(w.at(26)), (std::vector<std::string>{"a:12", "-"}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{10, 10, 20, 20}));
}

// A group that ends (idle) hands out what it had complete before in its place, then what its end
// closes (groups that end together in the order they began), before anything the ending event
// itself completes; not by the times of the windows the end closes, which lie before windows
// already handed out.
TEST(WindowOrder, AGroupThatEndsClosesWhenItEnds) {
  const std::vector<std::string> expected = {"a:0,1", "d:3,8",   "a:1", "d:8",
                                             "b:5",   "c:12,20", "c:20"};
  for (bool each : {true, false}) {
    SCOPED_TRACE(each ? "the actor fires after every arrival" : "it fires at the end only");
    WindowSpec spec = by_key("2 tokens", "1 token");
    spec.idle = 10;
    WindowHarness w(spec);
    std::vector<std::string> out;
    const std::pair<const char*, int> arrivals[] = {{"a", 0}, {"a", 1},  {"d", 3}, {"b", 5},
                                                    {"d", 8}, {"c", 12}, {"c", 20}};
    for (auto [k, v] : arrivals) {
      const Timestamp t = k == std::string("a") ? 0 : v;  // a:0 and a:1 both at time 0
      w.push(rec(k, v), t);
      if (each)
        for (const std::string& s : show(w.at(t)))
          out.push_back(s);
    }
    // c:20 ended a, d and b (their latest events 10 or more behind it).
    for (const std::string& s : show(w.end()))
      out.push_back(s);
    EXPECT_EQ(out, expected);
  }
}

// What the receiver hands out, and what leaves it, without the wake-up requests (those follow
// the batching by design) and the arrival numbers within groups (an event that can only expire is
// not numbered when its window was already finished: how far it was depends on the firings).
struct Outcome {
  std::vector<std::string> windows;
  std::vector<std::string> expired;  // sorted: when an event leaves follows the firings
  int late = 0;
};

// Takes every ready window as testing::Recorder does (the same firing decisions), writing down
// its group index (unless `idle`: a group that ended frees its slot once its windows are handed
// out, so which slot a new group takes depends on the firings), key, time, interval and events.
void take(testing::Recorder& r, bool idle, Outcome& out) {
  while (r.has_window()) {
    Window w = r.front_window();
    std::string line = (idle ? "" : "g" + std::to_string(w.group)) + " t" + std::to_string(w.time);
    if (w.key) line += " key " + w.key->to_json();
    if (w.interval)
      line += " [" + std::to_string(w.interval->start) + "," + std::to_string(w.interval->end) +
              (w.interval->closed_at_end ? "]" : ")");
    std::int64_t sum = static_cast<std::int64_t>(w.events.size());
    for (const Event& e : w.events) {
      line += " " + testing::describe(e);
      sum += e.token.field("v")->as_int();
    }
    out.windows.push_back(line);
    bool fired = sum % 4 != 0;
    r.finish_window(fired, fired);
  }
}

// Events with timestamps that never go back (ties are frequent) in five groups. After every
// event the receiver is advanced and its windows taken with probability `fire_chance` (1: the
// actor fires after every arrival), then the input ends. The clock is the latest event's time,
// so no window closes by its formation timeout.
Outcome run(const Kind& kind, std::uint32_t seed, double fire_chance, std::uint32_t batching) {
  std::mt19937 stream(seed);
  std::mt19937 batches(batching);
  std::bernoulli_distribution fires(fire_chance);
  auto r = testing::build(kind);
  Outcome out;
  static const char* const kKeys[] = {"a", "b", "c", "d", "e"};
  Timestamp now = 0;
  const int events = 60 + static_cast<int>(stream() % 60);
  for (int v = 0; v < events; ++v) {
    std::uint32_t step = stream() % 8;
    now += step < 4 ? 0 : step < 7 ? 1 + Timestamp(stream() % 3) : 12;
    r->push(Event{rec(kKeys[stream() % 5], v), now, WaveTag(now, std::uint64_t(v) + 1)});
    if (fires(batches)) {
      r->advance(now, false);
      take(*r, kind.idle > 0, out);
    }
  }
  r->advance(now, false);
  take(*r, kind.idle > 0, out);
  r->advance(now + 1, true);
  take(*r, kind.idle > 0, out);
  for (const std::string& line : r->log) {
    if (line.rfind("expired", 0) == 0)
      out.expired.push_back(line);
    else if (line == "late")
      ++out.late;
  }
  std::sort(out.expired.begin(), out.expired.end());
  return out;
}

// Property: for every kind of window that closes by tokens or event time, grouped or not, the
// windows (their order, groups, times and events), the events that expire and the late
// ones are the same whether the actor fires after every arrival, after random batches of them, or
// only at the end.
TEST(WindowOrder, BatchingDoesNotChangeWhatComesOutNorInWhichOrder) {
  int kinds = 0;
  for (const Kind& kind : testing::every_kind()) {
    const WindowSpec spec = kind.spec();
    if (spec.uses_waves() || kind.two_producers) continue;
    if (!spec.group_by.empty() && spec.size && spec.size->unit == WindowUnit::tokens && spec.step &&
        spec.step->unit == WindowUnit::time)
      continue;
    ++kinds;
    // 40 streams a kind; 14 under the sanitizers (40 took 44 s under AddressSanitizer).
    for (std::uint32_t seed = 1; seed <= (testing::kSanitizerBuild ? 14u : 40u); ++seed) {
      SCOPED_TRACE(kind.name() + ", seed " + std::to_string(seed));
      const Outcome each = run(kind, seed, 1.0, 0);
      ASSERT_FALSE(each.windows.empty());
      for (auto [chance, batching] :
           {std::pair{0.3, 7u}, std::pair{0.05, 11u}, std::pair{0.0, 0u}}) {
        const Outcome other = run(kind, seed, chance, batching + seed);
        ASSERT_EQ(other.windows, each.windows) << "fire chance " << chance;
        ASSERT_EQ(other.expired, each.expired) << "fire chance " << chance;
        ASSERT_EQ(other.late, each.late) << "fire chance " << chance;
      }
    }
  }
  EXPECT_GE(kinds, 25);
}

}  // namespace
}  // namespace cwf
