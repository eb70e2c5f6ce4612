// Wave steps and sizes (the seed's combinations 3, 6, 7, 8 and 9): a wave is complete when every
// event it caused reached the port or was replaced by a punctuation, in whatever order they come.
#include <gtest/gtest.h>

#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::Ints;
using testing::ints;
using testing::window;
using testing::WindowHarness;

// Wave n: the external event at time n (sequence 1). part(n, i, of): its i-th of `of` children.
WaveTag wave(int n) {
  return WaveTag(n, 1);
}
WaveTag part(int n, std::uint32_t i, std::uint32_t of) {
  return wave(n).child(i, i == of);
}
// Item i of order n (token n*10 + i, at time `time`).
void item(WindowHarness& w, int n, std::uint32_t i, std::uint32_t of, Timestamp time = 0) {
  w.push(n * 10 + static_cast<int>(i), time, part(n, i, of));
}
void dropped(WindowHarness& w, const WaveTag& tag, Timestamp time = 0) {
  w.push(Value(), time, tag.as_punctuation());
}

TEST(WindowWave, WantsPunctuationExactlyWithWaveUnits) {
  EXPECT_TRUE(WindowHarness(window("1 wave", "1 wave")).wants_punctuation());
  EXPECT_TRUE(WindowHarness(window("1 wave", "10 s")).wants_punctuation());
  EXPECT_TRUE(WindowHarness(window("3 tokens", "2 waves")).wants_punctuation());
  EXPECT_TRUE(WindowHarness(window("2 waves", "")).wants_punctuation());
  EXPECT_FALSE(WindowHarness(window("3 tokens", "1 token")).wants_punctuation());
  EXPECT_FALSE(WindowHarness(window("10 s", "1 s")).wants_punctuation());
  EXPECT_FALSE(WindowHarness(window("", "")).wants_punctuation());
}

TEST(WindowWave, WindowsWithoutWavesDropPunctuations) {
  WindowSpec spec = window("2 tokens", "2 tokens");
  WindowHarness w(spec);
  w.push(1, 1, part(1, 1, 2));
  dropped(w, part(1, 2, 2), 1);
  w.push(2, 2, part(2, 1, 1));
  dropped(w, part(3, 1, 1), 0);  // an old timestamp: still not late, it is no event
  w.push(3, 3, part(3, 1, 1));
  EXPECT_EQ(ints(w.at(3)), (Ints{{1, 2}}));
  EXPECT_EQ(ints(w.end()), (Ints{{3}}));
  EXPECT_EQ(w.late, 0);
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{1, 2, 3}));  // used, not deleted

  WindowHarness t(window("10 ns", "10 ns"));
  t.push(1, 1);
  dropped(t, part(1, 1, 1), 50);  // would close [0, 10) if it were an event
  EXPECT_TRUE(t.at(0).empty());
  EXPECT_EQ(ints(t.end()), (Ints{{1}}));
}

// 9. Step WAVE, size WAVE: one window per order with all its items (CWP3), whatever the order in
// which the items arrive. Windows follow the waves' first arrival: order 2 completes first but
// waits for order 1.
TEST(WindowWave, StepWaveSizeWaveOutOfOrder) {
  WindowHarness w(window("1 wave", "1 wave"));
  item(w, 1, 2, 3);
  item(w, 2, 1, 2);
  item(w, 1, 3, 3);
  item(w, 2, 2, 2);  // order 2 complete
  EXPECT_TRUE(w.at(0).empty());
  item(w, 1, 1, 3);  // order 1 complete
  EXPECT_EQ(ints(w.at(0)), (Ints{{12, 13, 11}, {21, 22}}));
  // Used but not deleted: each order expires when the next window moves past it.
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{12, 13, 11, 21, 22}));
  EXPECT_EQ(w.buffered(), 0u);
}

// A filter dropped item 2 of order 3: its punctuation stands in for it and the order closes.
TEST(WindowWave, StepWaveSizeWaveWithADroppedPart) {
  WindowHarness w(window("1 wave", "1 wave"));
  item(w, 3, 1, 3);
  item(w, 3, 3, 3);
  EXPECT_TRUE(w.at(0).empty());
  dropped(w, part(3, 2, 3));
  EXPECT_EQ(ints(w.at(0)), (Ints{{31, 33}}));
  // Deeper: item 2 of order 4 was split in two and the second half dropped (4.2.2* punctuation);
  // an order whose only item was dropped makes no window.
  item(w, 4, 1, 2);
  w.push(421, 0, part(4, 2, 2).child(1, false));
  dropped(w, part(5, 1, 1));
  EXPECT_TRUE(w.at(0).empty());
  dropped(w, part(4, 2, 2).child(2, true));
  item(w, 6, 1, 1);
  EXPECT_EQ(ints(w.at(0)), (Ints{{41, 421}, {61}}));
  EXPECT_EQ(w.late, 0);
}

TEST(WindowWave, StepWaveSizeWaveSlidingAndSkipping) {
  WindowHarness sliding(window("2 waves", "1 wave"));
  WindowHarness skipping(window("1 wave", "2 waves"));
  for (WindowHarness* w : {&sliding, &skipping})
    for (int n = 1; n <= 4; ++n) {
      item(*w, n, 1, 2);
      item(*w, n, 2, 2);
    }
  EXPECT_EQ(ints(sliding.at(0)), (Ints{{11, 12, 21, 22}, {21, 22, 31, 32}, {31, 32, 41, 42}}));
  EXPECT_EQ(ints(sliding.end()), (Ints{{41, 42}}));
  EXPECT_EQ(ints(skipping.at(0)), (Ints{{11, 12}, {31, 32}}));
  EXPECT_EQ(ints(skipping.expired_tokens()), (std::vector<int>{11, 12, 21, 22, 31, 32, 41, 42}));
  EXPECT_TRUE(skipping.end().empty());
}

// 7. Step WAVE, size TOKEN: every wave, the first 3 tokens from its wave on. Wave 1 is too small:
// its window waits for a token of wave 2 although wave 1 is complete.
TEST(WindowWave, StepWaveSizeToken) {
  WindowHarness w(window("3 tokens", "1 wave"));
  item(w, 1, 1, 2);
  item(w, 1, 2, 2);
  EXPECT_TRUE(w.at(0).empty());
  item(w, 2, 1, 4);
  EXPECT_EQ(ints(w.at(0)), (Ints{{11, 12, 21}}));
  item(w, 2, 2, 4);
  item(w, 2, 3, 4);
  item(w, 2, 4, 4);
  EXPECT_EQ(ints(w.at(0)), (Ints{{21, 22, 23}}));
  item(w, 3, 1, 1);
  EXPECT_TRUE(w.at(0).empty());
  EXPECT_EQ(ints(w.end()), (Ints{{31}}));
  // Each window's step expires the waves before the next window's wave.
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{11, 12, 21, 22, 23, 24, 31}));
}

// 8. Step WAVE, size TIME: for every wave, 10 ns from its first event. Wave 1 spans more: its
// event at 14 is left out (and expires); wave 2 spans less: wave 3's event at 15 joins it.
TEST(WindowWave, StepWaveSizeTime) {
  WindowHarness w(window("10 ns", "1 wave"));
  item(w, 1, 1, 3, 1);
  item(w, 1, 2, 3, 5);
  EXPECT_TRUE(w.at(5).empty());
  item(w, 1, 3, 3, 14);  // at or past 11: [1, 11) closes
  EXPECT_EQ(ints(w.at(14)), (Ints{{11, 12}}));
  item(w, 2, 1, 2, 12);
  item(w, 2, 2, 2, 13);
  item(w, 3, 1, 1, 15);
  EXPECT_TRUE(w.at(15).empty());
  w.push(40, 40, wave(4));
  EXPECT_EQ(ints(w.at(40)), (Ints{{21, 22, 31}, {31}}));
  EXPECT_EQ(ints(w.end()), (Ints{{40}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{11, 22, 25, 50}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{11, 12, 13, 21, 22, 31, 40}));
}

// 6. Step TOKEN, size WAVE: for every token, the events of its wave from it on, once the wave is
// complete; waves interleave.
TEST(WindowWave, StepTokenSizeWave) {
  WindowHarness w(window("1 wave", "1 token"));
  item(w, 1, 1, 2);
  item(w, 2, 1, 2);
  EXPECT_TRUE(w.at(0).empty());
  item(w, 1, 2, 2);
  EXPECT_EQ(ints(w.at(0)), (Ints{{11, 12}}));
  item(w, 2, 2, 2);
  EXPECT_EQ(ints(w.at(0)), (Ints{{21, 22}, {12}, {22}}));
}

// 6 with a two-token step and two-wave size, a dropped part closing wave 2.
TEST(WindowWave, StepTokensSizeWaves) {
  WindowHarness w(window("2 waves", "2 tokens"));
  item(w, 1, 1, 1);
  item(w, 2, 1, 2);
  item(w, 3, 1, 1);
  EXPECT_TRUE(w.at(0).empty());
  dropped(w, part(2, 2, 2));
  EXPECT_EQ(ints(w.at(0)), (Ints{{11, 21}}));
  item(w, 4, 1, 1);
  EXPECT_EQ(ints(w.at(0)), (Ints{{31, 41}}));
}

// 3. Step TIME, size WAVE: every 10 ns, the first wave with an event in the period (its events
// from the period's start on), handed out once the wave is complete. Wave 3 never completes: its
// event expires with its period, which then holds no wave (an empty window).
TEST(WindowWave, StepTimeSizeWave) {
  WindowHarness w(window("1 wave", "10 ns"));
  item(w, 1, 1, 2, 1);
  EXPECT_TRUE(w.at(1).empty());
  item(w, 1, 2, 2, 3);
  EXPECT_EQ(ints(w.at(3)), (Ints{{11, 12}}));
  item(w, 2, 1, 2, 12);
  item(w, 3, 1, 2, 15);
  item(w, 2, 2, 2, 14);
  w.push(99, 31, wave(31));
  EXPECT_EQ(ints(w.at(31)), (Ints{{21, 22}, {}, {99}}));
  EXPECT_EQ(w.times, (std::vector<Timestamp>{3, 14, 30, 31}));
  EXPECT_EQ(ints(w.expired_tokens()), (std::vector<int>{11, 12, 21, 31, 22, 99}));
  EXPECT_TRUE(w.end().empty());
}

// An endless stream: waves are forgotten once complete and gone from the queue.
TEST(WindowWave, StateStaysBoundedOverManyWaves) {
  for (const char* step : {"1 wave", "1 token"}) {
    WindowHarness w(window("1 wave", step));
    std::size_t windows = 0, max_open = 0, max_records = 0;
    for (int n = 1; n <= 5000; ++n) {
      item(w, n, 3, 3);
      dropped(w, part(n, 2, 3));
      if (n % 7 == 0) item(w, n + 1, 1, 2);  // the next wave starts before this one ends
      item(w, n, 1, 3);
      if (n % 7 == 6) continue;
      if (n % 7 == 0) {
        item(w, n + 1, 2, 2);
        ++n;
      }
      windows += w.at(0).size();
      max_open = std::max(max_open, w.open_waves());
      max_records = std::max(max_records, w.wave_records());
    }
    EXPECT_GT(windows, 4000u) << step;
    EXPECT_LE(max_open, 4u) << step;
    EXPECT_LE(max_records, 4u) << step;
  }
}

}  // namespace
}  // namespace cwf
