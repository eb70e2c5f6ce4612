#include "linear_road/segment_minute_summary.hpp"

namespace cwf::lr {

namespace {
constexpr std::int32_t kSegments = 100;
constexpr std::int32_t kCongestedCars = 50;   // a toll needs more cars than this
constexpr std::int32_t kCongestedSpeed = 40;  // and a mean speed below this
}  // namespace

SegmentMinuteSummary::SegmentMinuteSummary(int xways)
    : cells_(static_cast<std::size_t>(xways) * 2 * kSegments) {}

void SegmentMinuteSummary::add(const InputRecord& r) {
  if (r.type >= 0 && r.type < 5) ++lines_[r.type];
  if (r.type != static_cast<std::int32_t>(InputType::position_report)) return;
  const std::int32_t minute = minute_of(r.time);
  if (minute != minute_) {
    close_minute();
    minute_ = minute;
  }
  if (r.xway < 0 || r.dir < 0 || r.dir > 1 || r.seg < 0 || r.seg >= kSegments || r.carid < 0)
    return;  // not a report this summary can place
  const std::size_t index =
      (static_cast<std::size_t>(r.xway) * 2 + static_cast<std::size_t>(r.dir)) * kSegments +
      static_cast<std::size_t>(r.seg);
  if (index >= cells_.size()) return;  // an expressway beyond those summarised
  Cell& cell = cells_[index];
  const std::int64_t key =
      static_cast<std::int64_t>(minute) * static_cast<std::int64_t>(cells_.size()) +
      static_cast<std::int64_t>(index);
  const auto car = static_cast<std::size_t>(r.carid);
  if (car >= last_counted_.size()) last_counted_.resize(car + 1 + car / 2, -1);
  if (last_counted_[car] != key) {
    last_counted_[car] = key;
    ++cell.cars;
  }
  cell.speed_sum += r.speed;
  ++cell.reports;
}

void SegmentMinuteSummary::close_minute() {
  for (Cell& cell : cells_) {
    if (cell.reports > 0) {
      const auto mean = static_cast<std::int32_t>(cell.speed_sum / cell.reports);
      if (cell.cars > busiest_cars_) {
        busiest_cars_ = cell.cars;
        busiest_mean_speed_ = mean;
      }
      if (cell.cars > kCongestedCars && mean < kCongestedSpeed) ++congested_;
    }
    cell = Cell{};
  }
}

void SegmentMinuteSummary::finish() {
  close_minute();
}

}  // namespace cwf::lr
