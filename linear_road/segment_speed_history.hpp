// Per (xway, dir, seg) and minute, the traffic statistics Linear Road tolls by: how many distinct
// cars reported, and the mean over those cars of each car's mean speed in that minute. Only the
// last few minutes are kept (a ring per segment), which is all the toll needs: the car count of
// minute m-1 and the LAV over minutes m-5..m-1.
//
// The mean of means (not the mean of all reports) is the Perl validator's definition and the
// paper's. Car means are kept as exact integers in twelfths (a car reports 1-3 times in a minute,
// and 12 is divisible by every such count) so that a car's mean can be replaced when it reports
// again without floating-point drift.
//
// A report whose speed is out of range (speed_in_range) still puts its car in the segment: the
// car counts in `cars`, and its speed is left out of the means. A minute whose cars all reported
// such speeds has cars but no mean speed, and the LAV passes over it like a minute without cars.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::lr {

// One car's speed samples in the (segment, minute) it last reported in.
struct CarMinuteSpeeds {
  std::int64_t cell_minute = -1;  // which (cell, minute) they belong to; -1: none
  std::int32_t speed_sum = 0;
  std::int32_t reports = 0;  // reports with a speed in range
};

class SegmentSpeedHistory {
 public:
  static constexpr std::int32_t kSegments = 100;
  static constexpr std::int32_t kLavMinutes = 5;

  // A position report of a car at `speed`; a speed out of range (speed_in_range) counts the car
  // and not the speed. Reports must come in non-decreasing time.
  void add(CarMinuteSpeeds& car, std::int32_t xway, std::int32_t dir, std::int32_t seg,
           std::int32_t minute, std::int32_t speed);

  // Distinct cars that reported in the segment during `minute` (0 when it is no longer kept).
  std::int32_t cars(std::int32_t xway, std::int32_t dir, std::int32_t seg,
                    std::int32_t minute) const;
  // Mean over the cars of the segment in `minute` of each car's mean speed; nothing without cars
  // (or when no car's speed was in range).
  std::optional<double> mean_speed(std::int32_t xway, std::int32_t dir, std::int32_t seg,
                                   std::int32_t minute) const;
  // The latest average velocity for a report in `minute`: the mean of mean_speed over the minutes
  // m-5..m-1 that have one, truncated; nothing when none has.
  std::optional<std::int32_t> lav(std::int32_t xway, std::int32_t dir, std::int32_t seg,
                                  std::int32_t minute) const;

  // Checkpoints: the slots of every segment.
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  static constexpr std::int32_t kRing = 8;  // > kLavMinutes + 1, a power of two
  static constexpr std::int64_t kTwelfths = 12;

  struct Slot {
    // 64 bits: a checkpoint writes slots as their bytes, and a record without padding has no
    // indeterminate ones.
    std::int64_t minute = -1;
    std::int32_t cars = 0;
    std::int32_t cars_with_speed = 0;    // cars with at least one speed in range
    std::int64_t mean_sum_twelfths = 0;  // sum over those cars of the car's mean speed * 12
  };

  static std::int64_t cell_of(std::int32_t xway, std::int32_t dir, std::int32_t seg) {
    return (static_cast<std::int64_t>(xway) * 2 + dir) * kSegments + seg;
  }
  static std::int64_t car_mean_twelfths(std::int32_t sum, std::int32_t reports) {
    return (static_cast<std::int64_t>(sum) * kTwelfths + reports / 2) / reports;
  }
  const Slot* find(std::int64_t cell, std::int32_t minute) const;

  std::vector<Slot> slots_;  // kRing per cell
};

}  // namespace cwf::lr
