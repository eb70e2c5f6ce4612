#include "runtime/time/clock.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace cwf {
namespace {

TEST(Clock, VirtualTimeOnlyMovesForward) {
  VirtualClock clock(100);
  EXPECT_EQ(clock.now(), 100);
  clock.sleep_until(500);
  EXPECT_EQ(clock.now(), 500);
  clock.observe(300);  // an older event does not turn time back
  EXPECT_EQ(clock.now(), 500);
  EXPECT_EQ(clock.real_delay_until(10'000), 0);
}

TEST(Clock, RealClockIsWallTime) {
  RealClock clock;
  auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
  EXPECT_NEAR(static_cast<double>(clock.now()), static_cast<double>(wall), 1e9);
  Timestamp before = clock.now();
  clock.sleep_until(before + 2 * kMillisecond);
  EXPECT_GE(clock.now(), before + 2 * kMillisecond);
}

TEST(Clock, ScaledClockRunsFasterByItsFactor) {
  ScaledClock clock(1'000 * kSecond, 1000.0);
  Timestamp start = clock.now();
  EXPECT_GE(start, 1'000 * kSecond);
  // One virtual second is a wall millisecond at 1000x.
  EXPECT_LE(clock.real_delay_until(start + kSecond), kMillisecond);
  auto wall_before = std::chrono::steady_clock::now();
  clock.sleep_until(start + 20 * kSecond);
  auto wall = std::chrono::steady_clock::now() - wall_before;
  EXPECT_GE(clock.now(), start + 20 * kSecond);
  EXPECT_GE(wall, std::chrono::milliseconds(15));
  EXPECT_THROW(ScaledClock(0, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace cwf
