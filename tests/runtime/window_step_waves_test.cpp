// The wave step (WindowStepWaves) on its own: a group's waves are numbered in the order of their
// first event in it; window k starts with the first queued event of wave k*N or later, and is
// complete (for a size that holds up to the next bound) when waves [k*N, (k+1)*N) are.
#include <gtest/gtest.h>

#include "window_parts_fixture.hpp"

namespace cwf {
namespace {

using testing::PartsFixture;

WaveTag w(int n) {
  return WaveTag(n, 1);
}

TEST(WindowStepWaves, WindowKStartsWithTheFirstEventOfWaveKTimesN) {
  PartsFixture f("3 tokens", "1 wave");
  // Waves of 2, 4 and 1 tokens, wave 2 interleaved with wave 1.
  f.add(10, 1, w(1));
  f.add(20, 2, w(2));
  f.add(11, 3, w(1));
  f.add(21, 4, w(2));
  f.cursor.k = 1;
  WindowPlace place = f.place();
  ASSERT_TRUE(f.placed);
  EXPECT_EQ(place.wave_from, 1u);
  EXPECT_EQ(place.wave_to, 2u);
  EXPECT_EQ(place.first, 1u);  // token 20: the first event of the group's second wave
  EXPECT_EQ(f.parts.step->start_time(f.group, place), 2);
  EXPECT_FALSE(place.dense);
  f.cursor.k = 2;  // the third wave has not been seen
  f.place();
  EXPECT_FALSE(f.placed);
}

TEST(WindowStepWaves, NextBoundReachedWhenTheStepsWavesAreComplete) {
  PartsFixture f("", "2 waves");
  f.add(10, 1, w(1));
  f.add(20, 2, w(2));
  WindowPlace place = f.place();
  auto reached = [&] {
    return f.parts.step->next_bound_reached(f.group, place, PartsFixture::open(0));
  };
  EXPECT_FALSE(reached());
  f.group.wave_complete(w(2));
  EXPECT_FALSE(reached());  // wave 1 is not
  f.group.wave_complete(w(1));
  EXPECT_TRUE(reached());
}

TEST(WindowStepWaves, ExpiryBoundIsTheWaveOrdinal) {
  PartsFixture f("1 wave", "1 wave");
  f.cursor.k = 3;
  WindowPlace bounds = f.bounds();
  EXPECT_EQ(bounds.wave_from, 3u);
  EXPECT_FALSE(bounds.by_arrival_only());
  EXPECT_FALSE(f.parts.step->looks_back());
}

}  // namespace
}  // namespace cwf
