// A live view (cli/server/live_view.hpp) on its own: the line it writes for an event, the
// predicate, and what a slow reader is told (the oldest lines dropped and counted, never the
// workflow held up). Views on running workflows: rest_api_test.cpp and e2e/server_test.cpp.
#include "cli/server/live_view.hpp"

#include <gtest/gtest.h>

namespace cwf::cli {
namespace {

const ConnectionName kConnection{"cars", "out", "speeds", "in"};

Event event_of(std::int64_t speed, Timestamp time) {
  Event event;
  event.token = Value::record({{"speed", Value(speed)}});
  event.time = time;
  event.wave = WaveTag(time, static_cast<std::uint64_t>(speed));
  return event;
}

TEST(LiveView, ALineIsTheEventTaggedWithItsActorPortConnectionTimeAndWave) {
  EXPECT_EQ(view_line(kConnection, event_of(42, 1000)),
            R"({"actor":"cars","port":"out","to":"speeds.in","time":1000,"wave":")" +
                event_of(42, 1000).wave.to_string() + R"(","value":{"speed":42}})");
  EXPECT_EQ(kConnection.text(), "cars.out -> speeds.in");
}

TEST(LiveView, OnlyTheEventsMatchingThePredicateAreKeptInOrder) {
  LiveView view(kConnection, Expression::compile("/speed > 50"));
  for (std::int64_t speed : {10, 60, 55, 50, 70})
    view.seen(event_of(speed, speed));
  LiveView::Batch batch = view.take();
  ASSERT_EQ(batch.lines.size(), 3u);
  EXPECT_EQ(batch.lines[0], view_line(kConnection, event_of(60, 60)));
  EXPECT_EQ(batch.lines[1], view_line(kConnection, event_of(55, 55)));
  EXPECT_EQ(batch.lines[2], view_line(kConnection, event_of(70, 70)));
  EXPECT_EQ(batch.dropped, 0u);
  EXPECT_FALSE(batch.ended);
  EXPECT_TRUE(view.take().lines.empty()) << "taken once";
  EXPECT_EQ(view.matched(), 3u);
}

TEST(LiveView, ASlowReaderLosesTheOldestLinesAndIsToldHowMany) {
  LiveView view(kConnection, std::nullopt, /*capacity=*/3);
  for (std::int64_t speed = 1; speed <= 5; ++speed)
    view.seen(event_of(speed, speed));
  LiveView::Batch batch = view.take();
  ASSERT_EQ(batch.lines.size(), 3u);
  EXPECT_EQ(batch.lines[0], view_line(kConnection, event_of(3, 3)));
  EXPECT_EQ(batch.lines[2], view_line(kConnection, event_of(5, 5)));
  EXPECT_EQ(batch.dropped, 2u);
  EXPECT_EQ(view.take().dropped, 0u) << "told once";
}

TEST(LiveView, APredicateThatFailsOnAnEventLeavesItOutAndCountsIt) {
  LiveView view(kConnection, Expression::compile("/speed * 9223372036854775807 > 0"));
  for (std::int64_t speed : {1, 2, 0})
    view.seen(event_of(speed, speed));
  LiveView::Batch batch = view.take();
  EXPECT_EQ(batch.errors, 1u) << "2 * (2^63 - 1) overflows";
  ASSERT_EQ(batch.lines.size(), 1u);
  EXPECT_EQ(batch.lines[0], view_line(kConnection, event_of(1, 1)));
}

TEST(LiveView, AnEndedViewTellsItsReaderAndTakesNoMore) {
  LiveView view(kConnection, std::nullopt);
  view.seen(event_of(1, 1));
  view.end();
  view.seen(event_of(2, 2));
  LiveView::Batch batch = view.take();
  EXPECT_TRUE(batch.ended);
  EXPECT_EQ(batch.lines.size(), 1u);
}

}  // namespace
}  // namespace cwf::cli
