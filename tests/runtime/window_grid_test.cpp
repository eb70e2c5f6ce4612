// The nine size/step combinations of the seed (3.2.2.1), each with group-by: one queue per key,
// windows of all groups handed out earliest first. Waves are tracked per port: a wave may have
// events in several groups and each group's window of it is ready once the whole wave is complete.
#include <gtest/gtest.h>

#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::show;
using testing::window;
using testing::WindowHarness;

WaveTag part(int n, std::uint32_t i, std::uint32_t of) {
  return WaveTag(n, 1).child(i, i == of);
}

// An event of group `k` (value v at time t), or with an empty k the punctuation of `wave`.
struct Push {
  std::string k;
  int v = 0;
  Timestamp t = 0;
  WaveTag wave;
};
Push ev(std::string k, int v, Timestamp t, WaveTag wave = {}) {
  return {std::move(k), v, t, std::move(wave)};
}
Push dropped(WaveTag wave) {
  return {"", 0, 0, std::move(wave)};
}

struct Stage {
  std::vector<Push> pushes;
  Timestamp now;
  std::vector<std::string> windows;  // "a:1,5"; "-" for an empty window
};

struct Case {
  std::string name, size, step;
  std::vector<Stage> stages;
  std::vector<std::string> at_end;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

using S = std::vector<std::string>;

const Case kCases[] = {
    // 1. Tumbling 10 ns windows per key; b's quiet period [10, 20) and a's [20, 30) are empty
    // (and come after the windows of their time with events).
    {"StepTimeSizeTime",
     "10 ns",
     "10 ns",
     {{{ev("a", 1, 1), ev("b", 2, 2), ev("a", 12, 12), ev("b", 25, 25)},
       25,
       S{"a:1", "b:2", "a:12", "-"}}},
     S{"b:25", "-"}},
    // 2. Every 10 ns the first token of the key's period; a's 3 expires, a's [10, 20) is empty.
    {"StepTimeSizeToken",
     "1 token",
     "10 ns",
     {{{ev("a", 1, 1), ev("a", 3, 3), ev("b", 2, 2), ev("b", 14, 14), ev("a", 21, 21)},
       21,
       S{"a:1", "b:2", "b:14", "-", "a:21"}}},
     S{"-"}},
    // 3. Every 10 ns the first wave of the key's period. Wave 1 has an event in each group and
    // completes (for both) when its dropped third part's punctuation arrives; so does wave 2.
    {"StepTimeSizeWave",
     "1 wave",
     "10 ns",
     {{{ev("a", 11, 1, part(1, 1, 3)), ev("b", 12, 2, part(1, 2, 3)),
        ev("a", 21, 12, part(2, 1, 2)), ev("b", 31, 13, part(3, 1, 1))},
       13,
       S{}},
      {{dropped(part(1, 3, 3))}, 13, S{"a:11", "b:12", "b:31"}},
      {{dropped(part(2, 2, 2))}, 13, S{"a:21"}}},
     S{}},
    // 4. Tumbling 2-token windows per key, by the time of their last event.
    {"StepTokenSizeToken",
     "2 tokens",
     "2 tokens",
     {{{ev("a", 1, 1), ev("b", 2, 2), ev("b", 3, 3), ev("a", 4, 4), ev("a", 5, 5)},
       5,
       S{"b:2,3", "a:1,4"}}},
     S{"a:5"}},
    // 5. For every token of a key, the last 10 ns of that key's events, (t - 10, t]: ready as the
    // token arrives (the dissertation's combination 5).
    {"StepTokenSizeTime",
     "10 ns",
     "1 token",
     {{{ev("a", 1, 1), ev("b", 2, 2), ev("a", 5, 5), ev("a", 12, 12), ev("b", 20, 20)},
       20,
       S{"a:1", "b:2", "a:1,5", "a:5,12", "b:20"}}},
     S{}},
    // 6. For every token, its wave's events of the key from it on, once the wave is complete.
    {"StepTokenSizeWave",
     "1 wave",
     "1 token",
     {{{ev("a", 11, 1, part(1, 1, 2)), ev("a", 21, 3, part(2, 1, 1))}, 3, S{}},
      {{ev("b", 12, 2, part(1, 2, 2))}, 3, S{"a:11", "b:12", "a:21"}}},
     S{}},
    // 7. For every wave of a key, the key's first 2 tokens from that wave on (complete or not).
    {"StepWaveSizeToken",
     "2 tokens",
     "1 wave",
     {{{ev("a", 11, 1, part(1, 1, 2)), ev("b", 12, 2, part(1, 2, 2)), ev("a", 21, 3, part(2, 1, 2)),
        ev("a", 22, 4, part(2, 2, 2)), ev("b", 31, 5, part(3, 1, 1))},
       5,
       S{"a:11,21", "a:21,22", "b:12,31"}}},
     S{"b:31"}},
    // 8. For every wave of a key, 10 ns of the key's events from the wave's first one.
    {"StepWaveSizeTime",
     "10 ns",
     "1 wave",
     {{{ev("a", 1, 1, part(1, 1, 3)), ev("b", 3, 3, part(1, 2, 3)), ev("a", 5, 5, part(1, 3, 3)),
        ev("a", 12, 12, part(2, 1, 1)), ev("b", 20, 20, part(3, 1, 1))},
       20,
       S{"a:1,5", "b:3"}}},
     S{"a:12", "b:20"}},
    // 9. One window per wave and key (CWP3 per customer): wave 1 spans both keys; a's wave 3 is
    // complete first but waits for a's wave 1; b's wave 2 closes with a punctuation.
    {"StepWaveSizeWave",
     "1 wave",
     "1 wave",
     {{{ev("a", 11, 1, part(1, 1, 3)), ev("b", 12, 2, part(1, 2, 3)), ev("b", 21, 4, part(2, 1, 2)),
        ev("a", 31, 5, part(3, 1, 1))},
       5,
       S{}},
      {{ev("a", 13, 3, part(1, 3, 3))}, 5, S{"b:12", "a:11,13", "a:31"}},
      {{dropped(part(2, 2, 2))}, 5, S{"b:21"}}},
     S{}},
};

class WindowGrid : public ::testing::TestWithParam<Case> {};

TEST_P(WindowGrid, GroupedWindowsAreExact) {
  const Case& c = GetParam();
  WindowSpec spec = window(c.size, c.step);
  spec.group_by = {"/k"};
  WindowHarness w(spec);
  EXPECT_EQ(w.wants_punctuation(), spec.uses_waves());
  for (std::size_t i = 0; i < c.stages.size(); ++i) {
    const Stage& stage = c.stages[i];
    for (const Push& p : stage.pushes) {
      if (p.k.empty())
        w.push(Value(), p.t, p.wave.as_punctuation());
      else
        w.push(Value::record({{"k", Value(p.k)}, {"v", Value(p.v)}}), p.t, p.wave);
    }
    EXPECT_EQ(show(w.at(stage.now)), stage.windows) << "stage " << i;
  }
  EXPECT_EQ(show(w.end()), c.at_end) << "at the end of input";
  EXPECT_EQ(w.late, 0);
  EXPECT_EQ(w.groups(), 2u);
}

INSTANTIATE_TEST_SUITE_P(NineCombinations, WindowGrid, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace cwf
