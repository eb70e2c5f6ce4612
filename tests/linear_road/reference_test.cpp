// The rules of the Linear Road reference, each on a small hand-built input whose answers are
// worked out by hand in the comments.
#include "linear_road/reference.hpp"

#include <gtest/gtest.h>

#include "linear_road/segment_speed_history.hpp"
#include "reference_test_util.hpp"

namespace cwf::lr {
namespace {

using testing::Place;
using testing::position_report;
using testing::ReferenceUnderTest;

// Cars 1000.. report once in minute `minute` in `seg` at `speed`: `count` distinct cars.
void crowd(ReferenceUnderTest& run, std::int32_t minute, std::int32_t count, std::int32_t speed,
           Place place = {}, std::int32_t first_carid = 1000) {
  for (std::int32_t i = 0; i < count; ++i)
    run(position_report((minute - 1) * 60 + 1, first_carid + i, speed, place));
}

TEST(SegmentSpeedHistory, CarsAndMeansFallIntoTheMinuteOfTheirSecond) {
  SegmentSpeedHistory h;
  CarMinuteSpeeds a, b, c;
  h.add(a, 0, 0, 5, minute_of(0), 20);
  h.add(a, 0, 0, 5, minute_of(30), 40);  // car a: mean 30 in minute 1
  h.add(b, 0, 0, 5, minute_of(59), 61);  // t = 59 is still minute 1: car b, mean 61
  h.add(c, 0, 0, 5, minute_of(60), 10);  // t = 60 is minute 2
  EXPECT_EQ(h.cars(0, 0, 5, 1), 2);
  EXPECT_EQ(h.cars(0, 0, 5, 2), 1);
  EXPECT_DOUBLE_EQ(*h.mean_speed(0, 0, 5, 1), 45.5);  // mean of car means (30 + 61) / 2
  // Minute 3: the window 1..2 holds 45.5 and 10, mean 27.75, truncated.
  EXPECT_EQ(h.lav(0, 0, 5, 3), 27);
  EXPECT_EQ(h.lav(0, 0, 5, 2), 45);
  EXPECT_EQ(h.lav(0, 0, 5, 1), std::nullopt);  // nothing before minute 1
  EXPECT_EQ(h.lav(0, 0, 5, 7), 10);            // minute 1 left the window m-5..m-1 = 2..6
  EXPECT_EQ(h.lav(0, 0, 5, 8), std::nullopt);  // minutes 3..7 are empty
  EXPECT_EQ(h.cars(0, 1, 5, 1), 0);            // the other direction is another segment
}

TEST(SegmentSpeedHistory, MeanOfCarMeansIsNotTheMeanOfReports) {
  SegmentSpeedHistory h;
  CarMinuteSpeeds a, b;
  h.add(a, 0, 0, 5, 1, 10);
  h.add(a, 0, 0, 5, 1, 20);
  h.add(a, 0, 0, 5, 1, 30);  // car a: 3 reports, mean 20
  h.add(b, 0, 0, 5, 1, 80);  // car b: mean 80
  // Mean of means: 50. The mean of the 4 reports would be 35.
  EXPECT_DOUBLE_EQ(*h.mean_speed(0, 0, 5, 1), 50.0);
  EXPECT_EQ(h.cars(0, 0, 5, 1), 2);
}

// A speed out of range (kept by the parser for the report's position) counts the car, not the
// speed; a minute with cars but no speed in range has no mean, and the LAV skips it.
TEST(SegmentSpeedHistory, SpeedOutOfRangeCountsTheCarButNotItsSpeed) {
  SegmentSpeedHistory h;
  CarMinuteSpeeds a, b, c;
  h.add(a, 0, 0, 5, 1, 20);
  h.add(a, 0, 0, 5, 1, -2);  // car a: mean 20, not 9
  h.add(b, 0, 0, 5, 1, 101);
  h.add(b, 0, 0, 5, 1, 40);  // car b: mean 40, not 70.5
  EXPECT_EQ(h.cars(0, 0, 5, 1), 2);
  EXPECT_DOUBLE_EQ(*h.mean_speed(0, 0, 5, 1), 30.0);
  h.add(c, 0, 0, 5, 2, -2);  // minute 2: one car, no speed
  EXPECT_EQ(h.cars(0, 0, 5, 2), 1);
  EXPECT_EQ(h.mean_speed(0, 0, 5, 2), std::nullopt);
  EXPECT_EQ(h.lav(0, 0, 5, 3), 30);  // minute 1 only: not (30 + 0) / 2
  EXPECT_EQ(h.lav(0, 0, 5, 2), 30);
}

TEST(Reference, NotificationCarriesLavOfThePreviousMinutesAndZeroWithoutData) {
  ReferenceUnderTest run;
  run(position_report(0, 1, 20, {.seg = 5}));
  run(position_report(30, 1, 40, {.seg = 5}));
  run(position_report(59, 2, 60, {.seg = 5}));
  // Car 1 entered seg 5 at t = 0 with no history: LAV 0 (the Perl validator writes -1).
  ASSERT_NE(run.answers.toll_of(1, 0), nullptr);
  EXPECT_EQ(run.answers.toll_of(1, 0)->lav, 0);
  // Car 2 at t = 59 is in minute 1 too: still nothing before it.
  EXPECT_EQ(run.answers.toll_of(2, 59)->lav, 0);
  // t = 60 is minute 2: minute 1's means are 30 (car 1) and 60 (car 2): LAV 45.
  run(position_report(60, 3, 10, {.seg = 5}));
  EXPECT_EQ(run.answers.toll_of(3, 60)->lav, 45);
  EXPECT_EQ(run.answers.toll_of(3, 60)->toll, 0);  // 2 cars: no congestion
  EXPECT_EQ(run.answers.toll_of(3, 60)->emit, 60);
}

TEST(Reference, TollIsTwiceTheSquareOfCarsOverFifty) {
  ReferenceUnderTest run;
  crowd(run, 1, 55, 30);  // minute 1: 55 cars in seg 10 at 30 mph
  run(position_report(61, 1, 30));
  // Minute 2: numv(minute 1) = 55, LAV 30 < 40: toll 2 * (55 - 50)^2 = 50.
  EXPECT_EQ(run.answers.toll_of(1, 61)->lav, 30);
  EXPECT_EQ(run.answers.toll_of(1, 61)->toll, 50);
  EXPECT_EQ(run.reference.counts().nonzero_tolls, 1u);
}

TEST(Reference, NoTollAtFiftyCarsOrAtFortyMph) {
  ReferenceUnderTest fifty;
  crowd(fifty, 1, 50, 30);
  fifty(position_report(61, 1, 30));
  EXPECT_EQ(fifty.answers.toll_of(1, 61)->toll, 0);

  ReferenceUnderTest fast;
  crowd(fast, 1, 60, 40);
  fast(position_report(61, 1, 30));
  EXPECT_EQ(fast.answers.toll_of(1, 61)->lav, 40);
  EXPECT_EQ(fast.answers.toll_of(1, 61)->toll, 0);

  ReferenceUnderTest slow;
  crowd(slow, 1, 60, 39);
  slow(position_report(61, 1, 30));
  EXPECT_EQ(slow.answers.toll_of(1, 61)->toll, 200);  // 2 * 10^2
}

TEST(Reference, NotificationOnlyOnEnteringASegmentAndNeverInTheExitLane) {
  ReferenceUnderTest run;
  run(position_report(0, 1, 50, {.seg = 10, .lane = 0}));
  run(position_report(30, 1, 50, {.seg = 10, .lane = 1, .pos = 10 * 5280 + 900}));  // same seg
  run(position_report(60, 1, 50, {.seg = 11}));
  run(position_report(90, 1, 10, {.seg = 12, .lane = 4}));  // exits in a new segment
  ASSERT_EQ(run.answers.tolls.size(), 2u);
  EXPECT_EQ(run.answers.tolls[0].time, 0);
  EXPECT_EQ(run.answers.tolls[1].time, 60);
}

// Car 1 is tolled 50 in seg 10 (55 cars there in minute 1) and then moves on or exits.
void tolled_in_segment_10(ReferenceUnderTest& run) {
  crowd(run, 1, 55, 30);
  run(position_report(61, 1, 30));
  ASSERT_EQ(run.answers.toll_of(1, 61)->toll, 50);
}

TEST(Reference, TollIsChargedWhenTheCarReachesTheNextSegment) {
  ReferenceUnderTest run;
  tolled_in_segment_10(run);
  run(testing::balance_query(61, 1, 7));
  run(position_report(91, 1, 30, {.seg = 10, .pos = 10 * 5280 + 2000}));
  run(testing::balance_query(91, 1, 8));  // still in seg 10: not yet charged
  run(position_report(121, 1, 30, {.seg = 11}));
  run(testing::balance_query(121, 1, 9));
  ASSERT_EQ(run.answers.balances.size(), 3u);
  EXPECT_EQ(run.answers.balances[0], (BalanceAnswer{61, 61, 61, 7, 0}));
  EXPECT_EQ(run.answers.balances[1].balance, 0);
  EXPECT_EQ(run.answers.balances[2], (BalanceAnswer{121, 121, 121, 9, 50}));
}

TEST(Reference, TollIsChargedWhenTheCarReachesTheNextSegmentOnTheExitRamp) {
  ReferenceUnderTest run;
  tolled_in_segment_10(run);
  run(position_report(91, 1, 10, {.seg = 11, .lane = 4}));
  run(testing::balance_query(91, 1, 1));
  EXPECT_EQ(run.answers.balances[0].balance, 50);
}

TEST(Reference, NoChargeWhenTheCarExitsInTheTolledSegment) {
  ReferenceUnderTest run;
  tolled_in_segment_10(run);
  run(position_report(91, 1, 10, {.seg = 10, .lane = 4, .pos = 10 * 5280 + 3000}));
  run(testing::balance_query(91, 1, 1));
  // It comes back later (a new trip) and passes into seg 11: seg 10's old toll stays unpaid.
  run(position_report(500, 1, 50, {.seg = 10, .lane = 0}));
  run(position_report(530, 1, 50, {.seg = 11}));
  run(testing::balance_query(530, 1, 2));
  EXPECT_EQ(run.answers.balances[0].balance, 0);
  EXPECT_EQ(run.answers.balances[1].balance, 0);
}

TEST(Reference, BalanceOfACarNeverSeenIsZero) {
  ReferenceUnderTest run;
  run(testing::balance_query(5, 77, 3));
  EXPECT_EQ(run.answers.balances[0], (BalanceAnswer{5, 5, 5, 3, 0}));
}

TEST(Reference, ReenteringCarAfterMoreThanSixtySecondsIsNotifiedAgain) {
  ReferenceUnderTest run;
  run(position_report(0, 1, 50, {.seg = 10, .lane = 0}));
  run(position_report(30, 1, 10, {.seg = 10, .lane = 4, .pos = 10 * 5280 + 900}));
  // 60 s later is not more than 60 s: the same trip, the same segment, no notification.
  run(position_report(90, 1, 50, {.seg = 10, .lane = 0, .pos = 10 * 5280 + 10}));
  EXPECT_EQ(run.answers.tolls.size(), 1u);
  // 61 s after its last report the car is back: a new trip, notified again in seg 10.
  run(position_report(151, 1, 50, {.seg = 10, .lane = 0, .pos = 10 * 5280 + 20}));
  ASSERT_EQ(run.answers.tolls.size(), 2u);
  EXPECT_EQ(run.answers.tolls[1].time, 151);
  EXPECT_EQ(run.reference.counts().new_trips, 1u);
  // A long gap in a travel lane is not a re-entry.
  run(position_report(400, 1, 50, {.seg = 10, .lane = 1, .pos = 10 * 5280 + 30}));
  EXPECT_EQ(run.answers.tolls.size(), 2u);
}

TEST(Reference, DailyExpenditureLooksUpCarDayAndExpressway) {
  ReferenceUnderTest run;
  run.history.set(7, 3, 2, 55);
  run(testing::expenditure_query(100, 7, 1, 2, 3));
  run(testing::expenditure_query(101, 7, 2, 1, 3));  // another expressway: no row
  run(testing::expenditure_query(102, 8, 3, 2, 3));  // another car: no row
  ASSERT_EQ(run.answers.expenditures.size(), 3u);
  EXPECT_EQ(run.answers.expenditures[0], (ExpenditureAnswer{100, 100, 1, 55}));
  EXPECT_EQ(run.answers.expenditures[1].toll, 0);
  EXPECT_EQ(run.answers.expenditures[2].toll, 0);
  EXPECT_EQ(run.reference.counts().unknown_expenditures, 2u);
}

// Two cars stop side by side in lane 1 of seg 20 (dir 0) at t = 0, 30, ..., `last`.
void stopped_pair(ReferenceUnderTest& run, Seconds first, Seconds last, Place place) {
  for (Seconds t = first; t <= last; t += 30) {
    run(position_report(t, 1, 0, place));
    run(position_report(t, 2, 0, place));
  }
}

TEST(Reference, ThreeReportsAtOnePlaceAreNotAStopFourAre) {
  Place here{.seg = 20, .pos = 20 * 5280 + 77};
  ReferenceUnderTest three;
  stopped_pair(three, 0, 60, here);
  EXPECT_TRUE(three.reference.accidents().empty());

  ReferenceUnderTest four;
  stopped_pair(four, 0, 90, here);
  ASSERT_EQ(four.reference.accidents().size(), 1u);
  const auto& a = four.reference.accidents()[0];
  EXPECT_EQ(a.seg, 20);
  EXPECT_EQ(a.detected, 90);
  EXPECT_EQ(a.first_minute(), 3);  // detected in minute 2, in force from minute 3
}

TEST(Reference, AccidentNeedsTwoDistinctCarsAtTheSamePlace) {
  ReferenceUnderTest one;
  for (Seconds t = 0; t <= 300; t += 30)
    one(position_report(t, 1, 0, {.seg = 20}));
  EXPECT_TRUE(one.reference.accidents().empty());

  ReferenceUnderTest apart;  // same segment, different positions
  for (Seconds t = 0; t <= 300; t += 30) {
    apart(position_report(t, 1, 0, {.seg = 20, .pos = 20 * 5280 + 1}));
    apart(position_report(t, 2, 0, {.seg = 20, .pos = 20 * 5280 + 2}));
  }
  EXPECT_TRUE(apart.reference.accidents().empty());

  ReferenceUnderTest lanes;  // same position, different lanes
  for (Seconds t = 0; t <= 300; t += 30) {
    lanes(position_report(t, 1, 0, {.seg = 20, .lane = 1}));
    lanes(position_report(t, 2, 0, {.seg = 20, .lane = 2}));
  }
  EXPECT_TRUE(lanes.reference.accidents().empty());
}

TEST(Reference, AlertWindowRunsFromTheMinuteAfterDetectionToTheMinuteAfterTheLastStop) {
  ReferenceUnderTest run;
  Place accident{.seg = 20, .pos = 20 * 5280 + 77};
  // Detected at t = 90 (minute 2). Both cars still stopped through t = 180 (minute 4): the last
  // report with both cars stopped five times is at 180, so alerts run in minutes 3..5.
  stopped_pair(run, 0, 180, accident);
  run(position_report(210, 1, 30, {.seg = 21}));  // car 1 drives away: the accident clears
  run(position_report(210, 2, 0, accident));

  Place upstream{.seg = 17};
  run(position_report(119, 10, 50, upstream));  // minute 2: detected, not yet in force
  run(position_report(120, 11, 50, upstream));  // minute 3: first minute of alerts
  run(position_report(299, 12, 50, upstream));  // minute 5: last minute of alerts
  run(position_report(300, 13, 50, upstream));  // minute 6: over
  EXPECT_EQ(run.answers.alert_of(10, 119), nullptr);
  ASSERT_NE(run.answers.alert_of(11, 120), nullptr);
  EXPECT_EQ(*run.answers.alert_of(11, 120), (AccidentAlert{120, 120, 0, 20, 0, 11}));
  EXPECT_NE(run.answers.alert_of(12, 299), nullptr);
  EXPECT_EQ(run.answers.alert_of(13, 300), nullptr);
  ASSERT_EQ(run.reference.accidents().size(), 1u);
  EXPECT_EQ(run.reference.accidents()[0].last_minute(), 5);
}

TEST(Reference, AlertsGoToCarsUpToFourSegmentsUpstreamInTheirDirection) {
  for (std::int32_t dir : {0, 1}) {
    SCOPED_TRACE(dir);
    ReferenceUnderTest run;
    stopped_pair(run, 0, 240, {.seg = 20, .dir = dir, .pos = 20 * 5280 + 77});
    // Upstream is lower segments for dir 0 (positions increase), higher ones for dir 1.
    std::int32_t up = dir == 0 ? -1 : 1;
    std::int32_t carid = 100;
    auto probe = [&](std::int32_t seg, std::int32_t probe_dir) {
      run(position_report(150, carid, 50, {.seg = seg, .dir = probe_dir}));
      return run.answers.alert_of(carid++, 150) != nullptr;
    };
    EXPECT_TRUE(probe(20, dir));
    EXPECT_TRUE(probe(20 + 4 * up, dir));
    EXPECT_FALSE(probe(20 + 5 * up, dir));
    EXPECT_FALSE(probe(20 - up, dir));      // already past it
    EXPECT_FALSE(probe(20 + up, 1 - dir));  // the other direction
  }
}

TEST(Reference, NoTollWhileAnAccidentIsAhead) {
  ReferenceUnderTest run;
  stopped_pair(run, 0, 240, {.seg = 12, .pos = 12 * 5280 + 77});
  crowd(run, 3, 55, 30);  // minute 3: 55 slow cars in seg 10
  run(position_report(181, 5, 30));
  // numv 55 and LAV 30 would make 50, but the accident two segments ahead makes it 0.
  ASSERT_NE(run.answers.alert_of(5, 181), nullptr);
  EXPECT_EQ(run.answers.toll_of(5, 181)->toll, 0);
}

}  // namespace
}  // namespace cwf::lr
