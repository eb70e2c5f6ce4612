// The time step (WindowStepTime) on its own: windows on a grid of periods of length D whose
// origin is the group's first timestamp rounded down to a multiple of D; window k's lower bound
// is L = base + k*D, its period [L, L + D), closed by time at L + D; events before L are late.
// Empty windows that are not shown are jumped over (docs/workflow-yaml.md, "Windows").
#include <gtest/gtest.h>

#include "window_parts_fixture.hpp"

namespace cwf {
namespace {

using testing::PartsFixture;

TEST(WindowStepTime, GridOriginIsTheFirstTimestampRoundedDown) {
  PartsFixture f("2 tokens", "10 ns");
  f.place();
  EXPECT_FALSE(f.placed);  // no event yet: no grid
  f.add(1, 17);
  EXPECT_EQ(f.cursor.base, 10);
  f.cursor.k = 2;
  WindowPlace place = f.place();
  ASSERT_TRUE(f.placed);
  EXPECT_EQ(place.time_from, 30);
  EXPECT_EQ(place.time_to, 40);
  EXPECT_EQ(f.parts.step->start_time(f.group, place), 30);
  ASSERT_TRUE(place.period());
  EXPECT_EQ(*place.period(), (WindowInterval{30, 40}));
  EXPECT_FALSE(place.missing_first);  // a period exists without an event at its start

  PartsFixture negative("2 tokens", "10 ns");
  negative.add(1, -3);
  EXPECT_EQ(negative.cursor.base, -10);
}

TEST(WindowStepTime, EventsBeforeTheCurrentLowerBoundAreLate) {
  PartsFixture f("10 ns", "10 ns");
  EXPECT_EQ(f.cursor.floor, std::numeric_limits<Timestamp>::min());
  f.add(1, 12);
  EXPECT_EQ(f.cursor.floor, 10);
  f.parts.step->next(f.cursor);
  EXPECT_EQ(f.cursor.k, 1u);
  EXPECT_EQ(f.cursor.floor, 20);
}

TEST(WindowStepTime, ClosesByTimeAtThePeriodsEnd) {
  PartsFixture f("2 tokens", "10 ns");
  f.add(1, 1);
  WindowPlace place = f.place();
  StepClosing open = f.parts.step->closing(place, PartsFixture::open(9));
  EXPECT_FALSE(open.closed);
  EXPECT_EQ(open.end, 10);
  StepClosing closed = f.parts.step->closing(place, PartsFixture::open(10));
  EXPECT_TRUE(closed.closed);
  EXPECT_TRUE(closed.by_time);
  EXPECT_EQ(closed.end, 10);
  EXPECT_TRUE(f.parts.step->next_bound_reached(f.group, place, PartsFixture::open(10)));
}

TEST(WindowStepTime, AtTheEndOfInputNoWindowStartsPastTheLatestEvent) {
  PartsFixture f("2 tokens", "10 ns");
  f.add(1, 10);  // exactly on a boundary: reaches the window it starts
  f.place(PartsFixture::ended(10));
  EXPECT_TRUE(f.placed);
  f.cursor.k = 1;
  f.place(PartsFixture::ended(10));
  EXPECT_FALSE(f.placed);
}

// "1 wave / 10 s": for each period, the first wave with an event in it.
TEST(WindowStepTime, FirstWaveIsTheEarliestWaveWithAnEventInThePeriod) {
  PartsFixture f("1 wave", "10 ns");
  f.add(1, 1, WaveTag(1, 1));
  f.add(2, 15, WaveTag(2, 1));  // wave 1 (ordinal 0) has no event in [10, 20)
  f.add(3, 12, WaveTag(3, 1));
  f.add(4, 13, WaveTag(1, 1));
  f.cursor.k = 1;
  WindowPlace place = f.place();
  EXPECT_EQ(f.parts.step->first_wave(f.group, place), 0u);  // via token 4 at 13
  f.cursor.k = 2;
  place = f.place();
  EXPECT_EQ(f.parts.step->first_wave(f.group, place), std::nullopt);
}

TEST(WindowStepTime, SkippingEmptyWindowsJumpsToTheFirstThatHoldsAQueuedEvent) {
  // One-period windows: an event at 47 is first held by [40, 50).
  // The grid starts at 0; what was queued before 47 has left.
  PartsFixture f("2 tokens", "10 ns");
  f.cursor.started = true;
  f.add(2, 47);
  EXPECT_TRUE(f.parts.step->skip_empty(f.group, f.cursor));
  EXPECT_EQ(f.cursor.k, 4u);
  EXPECT_EQ(f.cursor.floor, 40);

  // Windows of 30 every 10: an event at 47 is first held by [20, 50).
  PartsFixture sliding("30 ns", "10 ns");
  sliding.cursor.started = true;
  sliding.add(2, 47);
  EXPECT_TRUE(sliding.parts.step->skip_empty(sliding.group, sliding.cursor));
  EXPECT_EQ(sliding.cursor.k, 2u);
}

TEST(WindowStepTime, WithNothingQueuedItWaitsForTheNextEvent) {
  PartsFixture f("30 ns", "10 ns");
  f.cursor.started = true;  // the group's events have all left
  EXPECT_FALSE(f.parts.step->skip_empty(f.group, f.cursor));
  EXPECT_TRUE(f.cursor.parked);
  EXPECT_EQ(f.cursor.floor, std::numeric_limits<Timestamp>::min());  // nothing is late
  f.place();
  EXPECT_FALSE(f.placed);
  f.add(1, 95);  // first held by [70, 100)
  EXPECT_FALSE(f.cursor.parked);
  EXPECT_EQ(f.cursor.k, 7u);
  EXPECT_EQ(f.cursor.floor, 70);
}

}  // namespace
}  // namespace cwf
