// Watches input records go by (in time order) and keeps what a dataset's reader wants to know
// about its traffic: lines per type, and per (xway, dir, seg, minute) the number of distinct cars
// and their mean speed: the busiest segment-minute and how many segment-minutes are congested the
// way Linear Road tolls them (more than 50 cars, mean speed below 40 mph).
#pragma once

#include <cstdint>
#include <vector>

#include "linear_road/records.hpp"

namespace cwf::lr {

class SegmentMinuteSummary {
 public:
  explicit SegmentMinuteSummary(int xways);

  void add(const InputRecord& record);
  // Closes the last minute; call after the last record.
  void finish();

  std::int64_t lines_of_type(int type) const { return lines_[static_cast<std::size_t>(type)]; }
  std::int32_t busiest_cars() const { return busiest_cars_; }
  std::int32_t busiest_mean_speed() const { return busiest_mean_speed_; }
  std::int64_t congested() const { return congested_; }

 private:
  struct Cell {
    std::int32_t cars = 0;
    std::int64_t speed_sum = 0;
    std::int32_t reports = 0;
  };
  void close_minute();

  std::int64_t lines_[5] = {};
  std::int32_t minute_ = -1;
  std::vector<Cell> cells_;  // (xway, dir, seg) of the current minute
  // Per car: the cell and minute it was last counted in, so each car counts once per cell.
  std::vector<std::int64_t> last_counted_;
  std::int32_t busiest_cars_ = 0;
  std::int32_t busiest_mean_speed_ = 0;
  std::int64_t congested_ = 0;
};

}  // namespace cwf::lr
