#include "linear_road/response_histogram.hpp"

#include <gtest/gtest.h>

#include "linear_road/response_times.hpp"

namespace cwf::lr {
namespace {

TEST(ResponseHistogram, MeanIsExactPercentilesWithinOneBucket) {
  ResponseHistogram h;
  for (int i = 1; i <= 1000; ++i)
    h.record(i * kMillisecond);  // 1 .. 1000 ms
  EXPECT_EQ(h.count(), 1000u);
  EXPECT_EQ(h.mean(), 500'500'000);
  EXPECT_EQ(h.max(), 1000 * kMillisecond);
  // Upper bucket edges: within 1/8 of an octave above the true value.
  EXPECT_GE(h.percentile(0.5), 500 * kMillisecond);
  EXPECT_LE(h.percentile(0.5), 500 * kMillisecond * 9 / 8);
  EXPECT_GE(h.percentile(0.99), 990 * kMillisecond);
  EXPECT_LE(h.percentile(0.99), 1000 * kMillisecond);  // capped by the maximum
  EXPECT_EQ(h.percentile(1.0), 1000 * kMillisecond);
}

TEST(ResponseHistogram, MicrosecondsAreExactBelowEightAndMergingAddsUp) {
  ResponseHistogram a, b;
  for (int i = 0; i < 8; ++i)
    a.record(i * kMicrosecond);
  EXPECT_EQ(a.percentile(0.5), 4 * kMicrosecond);  // the 4th of 0..7 µs lies in [3, 4) µs
  b.record(20 * kSecond);
  a.merge(b);
  EXPECT_EQ(a.count(), 9u);
  EXPECT_EQ(a.max(), 20 * kSecond);
  EXPECT_EQ(a.percentile(1.0), 20 * kSecond);
}

TEST(ResponseTimes, KeepsEveryAnswerPerTypeAndPerSecond) {
  ResponseTimes times;
  times.record(0, 2 * kMillisecond);
  times.record(0, 4 * kMillisecond);
  times.record(3, 1 * kSecond);
  auto total = times.total();
  EXPECT_EQ(total[0].count(), 2u);
  EXPECT_EQ(total[0].mean(), 3 * kMillisecond);
  EXPECT_EQ(total[3].count(), 1u);
  ASSERT_GE(times.seconds(), 1u);
  EXPECT_EQ(times.second(0)[0].count(), 2u);
  EXPECT_EQ(times.second(99)[0].count(), 0u);
}

}  // namespace
}  // namespace cwf::lr
