#include "experiments/breaking_point.hpp"

#include <gtest/gtest.h>

namespace cwf::experiments {
namespace {

std::vector<SecondSample> series(const std::vector<double>& responses, double rate = 100) {
  std::vector<SecondSample> out;
  for (std::size_t i = 0; i < responses.size(); ++i)
    out.push_back({rate * static_cast<double>(i + 1),
                   responses[i] < 0 ? std::nullopt : std::optional<double>(responses[i])});
  return out;
}

TEST(BreakingPointTest, BreaksWhereTheResponseExceedsTheLimitForGood) {
  auto point = breaking_point(series({0.1, 0.2, 1, 3, 6, 8, 12, 20}), 5.0, 1);
  ASSERT_TRUE(point.broke);
  EXPECT_EQ(point.second, 4);
  EXPECT_DOUBLE_EQ(point.input_rate, 500);  // the rate of second 4 (no smoothing)
}

TEST(BreakingPointTest, SpikesThatRecoverDoNotCount) {
  auto point = breaking_point(series({0.1, 7, 9, 0.5, 0.2, 6, 0.3}), 5.0);
  EXPECT_FALSE(point.broke);
  EXPECT_EQ(point.second, -1);
}

TEST(BreakingPointTest, OnlyTheFinalStretchAboveTheLimitCounts) {
  auto point = breaking_point(series({0.1, 7, 9, 0.5, 6, 7, 9}), 5.0, 1);
  ASSERT_TRUE(point.broke);
  EXPECT_EQ(point.second, 4);
}

TEST(BreakingPointTest, SecondsWithoutAnswersNeitherBreakNorRecover) {
  // -1: no answer left in that second.
  auto point = breaking_point(series({0.1, 0.2, 6, -1, 9, -1}), 5.0, 1);
  ASSERT_TRUE(point.broke);
  EXPECT_EQ(point.second, 2);
  EXPECT_FALSE(breaking_point(series({-1, -1, 0.3, -1}), 5.0).broke);
  EXPECT_FALSE(breaking_point({}, 5.0).broke);
}

TEST(BreakingPointTest, ExactlyTheLimitIsNotAbove) {
  EXPECT_FALSE(breaking_point(series({1, 5, 5}), 5.0).broke);
}

TEST(BreakingPointTest, TheInputRateIsAveragedOverTheSecondsBeforeTheBreak) {
  // Rates 100, 200, ..., break at second 5 (rate 600): mean of 300..600 with smoothing 4.
  auto point = breaking_point(series({0, 0, 0, 0, 0, 6, 7}), 5.0, 4);
  ASSERT_TRUE(point.broke);
  EXPECT_EQ(point.second, 5);
  EXPECT_DOUBLE_EQ(point.input_rate, 450);
  // Near the start the window is shorter.
  point = breaking_point(series({6, 7}), 5.0, 10);
  EXPECT_EQ(point.second, 0);
  EXPECT_DOUBLE_EQ(point.input_rate, 100);
}

}  // namespace
}  // namespace cwf::experiments
