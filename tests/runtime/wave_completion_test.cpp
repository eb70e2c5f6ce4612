#include "runtime/execution/wave_completion.hpp"

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

// CWP3 with parallel branches: an order (wave t of source 0) is split into items t.1, t.2*; branch
// A keeps t.1 and sends a punctuation for t.2, branch B the other way round. Each branch alone
// delivers a complete tree; the wave is complete only when both did.
TEST(WaveCompletion, ParallelBranchesCompleteAWaveTogether) {
  WaveCompletion waves;
  waves.set_carried_sources(0, {0});
  waves.set_carried_sources(1, {0});
  WaveTag t(7, 1);
  WaveTag item1 = t.child(1, false), item2 = t.child(2, true);
  EXPECT_FALSE(waves.add(item1.child(1, true), 0));
  EXPECT_FALSE(waves.add(item2.as_punctuation(), 0));  // branch A's tree is complete, B's is not
  EXPECT_FALSE(waves.complete(t));
  EXPECT_FALSE(waves.add(item1.as_punctuation(), 1));
  EXPECT_TRUE(waves.add(item2.child(1, true), 1));
  EXPECT_TRUE(waves.complete(t));
}

// Producer 1 carries only source 1's waves: a wave of source 0 needs producer 0 alone, and what
// producer 1 sends of it does not decide anything.
TEST(WaveCompletion, OnlyTheProducersThatCarryAWavesSourceAreWaitedFor) {
  WaveCompletion waves;
  waves.set_carried_sources(0, {0});
  waves.set_carried_sources(1, {1});
  WaveTag of_source0(3, 1);
  WaveTag of_source1(3, (std::uint64_t{1} << 40) + 1);
  EXPECT_TRUE(waves.add(of_source0, 0));
  EXPECT_FALSE(waves.add(of_source1.child(2, true), 0));  // not a carrier: never completes it
  EXPECT_FALSE(waves.add(of_source1.child(1, false), 0));
  EXPECT_FALSE(waves.complete(of_source1));
  EXPECT_FALSE(waves.add(of_source1.child(2, true), 1));
  EXPECT_TRUE(waves.add(of_source1.child(1, false), 1));
}

// A wave nobody is known to carry (it came through a window that fires once per several
// events): the first complete tree, through whichever producer, completes it.
TEST(WaveCompletion, AWaveNoProducerCarriesCompletesWithAnyTree) {
  WaveCompletion waves;
  waves.set_carried_sources(0, {0});
  WaveTag of_elsewhere(9, (std::uint64_t{5} << 40) + 1);
  EXPECT_FALSE(waves.add(of_elsewhere.child(2, true), 1));
  EXPECT_TRUE(waves.add(of_elsewhere.child(1, false), 1));
}

}  // namespace
}  // namespace cwf
