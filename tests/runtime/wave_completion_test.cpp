#include "runtime/wave_completion.hpp"

#include <gtest/gtest.h>

namespace cwf {
namespace {

TEST(WaveCompletion, AnExternalEventIsAWaveOfItsOwn) {
  WaveCompletion waves;
  EXPECT_TRUE(waves.add(WaveTag(10, 1)));
  EXPECT_TRUE(waves.complete(WaveTag(10, 1)));
  EXPECT_FALSE(waves.complete(WaveTag(10, 2)));
}

TEST(WaveCompletion, ASplitIsCompleteWhenEveryChildUpToTheLastArrived) {
  WaveCompletion waves;
  WaveTag t(5, 1);
  // Children arrive out of order; the last-marked one is not the last to arrive.
  EXPECT_FALSE(waves.add(t.child(3, true)));
  EXPECT_FALSE(waves.add(t.child(1, false)));
  EXPECT_FALSE(waves.complete(t));
  EXPECT_TRUE(waves.add(t.child(2, false)));
  EXPECT_TRUE(waves.complete(t.child(2, false)));  // asked through any descendant
}

TEST(WaveCompletion, NestedSplitsCompleteBottomUp) {
  WaveCompletion waves;
  WaveTag order(1, 7);
  WaveTag item1 = order.child(1, false), item2 = order.child(2, true);
  // item 1 went to two warehouses (1.1, 1.2*), item 2 to one (2.1*).
  EXPECT_FALSE(waves.add(item1.child(1, false)));
  EXPECT_FALSE(waves.add(item2.child(1, true)));
  EXPECT_EQ(waves.open_waves(), 1u);
  EXPECT_TRUE(waves.add(item1.child(2, true)));
}

TEST(WaveCompletion, APunctuationStandsForTheOutputsADroppingActorDidNotMake) {
  WaveCompletion waves;
  WaveTag t(3, 1);
  // A splitter made t.1, t.2, t.3*; a filter dropped t.2 and sent its punctuation instead; a
  // 1:1 map extended the others.
  EXPECT_FALSE(waves.add(t.child(1, false).child(1, true)));
  EXPECT_FALSE(waves.add(t.child(3, true).child(1, true)));
  EXPECT_TRUE(waves.add(t.child(2, false).as_punctuation()));
}

TEST(WaveCompletion, WavesAreIndependentAndForgettable) {
  WaveCompletion waves;
  WaveTag a(1, 1), b(1, 2);
  EXPECT_FALSE(waves.add(a.child(2, true)));
  EXPECT_TRUE(waves.add(b.child(1, true)));
  EXPECT_FALSE(waves.complete(a));
  EXPECT_TRUE(waves.complete(b));
  waves.forget(b);
  EXPECT_FALSE(waves.complete(b));
  EXPECT_EQ(waves.open_waves(), 1u);
  EXPECT_TRUE(waves.add(a.child(1, false)));
}

}  // namespace
}  // namespace cwf
