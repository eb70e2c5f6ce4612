#include "linear_road/segment_speed_history.hpp"

#include "linear_road/records.hpp"
#include "runtime/snapshot/trivial_array_snapshot.hpp"

namespace cwf::lr {

void SegmentSpeedHistory::save(SnapshotWriter& out) const {
  write_trivial_array(out, std::span<const Slot>(slots_));
}

void SegmentSpeedHistory::restore(SnapshotReader& in) {
  slots_ = read_trivial_array<Slot>(in, "the segments' minute slots");
  if (slots_.size() % kRing != 0)
    in.reject("the segments' minute slots", "they do not fill whole segments");
}

void SegmentSpeedHistory::add(CarMinuteSpeeds& car, std::int32_t xway, std::int32_t dir,
                              std::int32_t seg, std::int32_t minute, std::int32_t speed) {
  std::int64_t cell = cell_of(xway, dir, seg);
  std::size_t base = static_cast<std::size_t>(cell) * kRing;
  if (base + kRing > slots_.size()) slots_.resize(base + kRing);
  Slot& slot = slots_[base + static_cast<std::size_t>(minute & (kRing - 1))];
  if (slot.minute != minute) slot = Slot{minute, 0, 0, 0};

  std::int64_t cell_minute = (cell << 32) + minute;
  if (car.cell_minute != cell_minute) {
    car = CarMinuteSpeeds{cell_minute, 0, 0};
    ++slot.cars;
  }
  if (!speed_in_range(speed)) return;
  // The car's mean changes: take its old one out of the sum (if it had one), put the new one in.
  if (car.reports > 0)
    slot.mean_sum_twelfths -= car_mean_twelfths(car.speed_sum, car.reports);
  else
    ++slot.cars_with_speed;
  car.speed_sum += speed;
  ++car.reports;
  slot.mean_sum_twelfths += car_mean_twelfths(car.speed_sum, car.reports);
}

const SegmentSpeedHistory::Slot* SegmentSpeedHistory::find(std::int64_t cell,
                                                           std::int32_t minute) const {
  if (minute < 0) return nullptr;
  std::size_t index =
      static_cast<std::size_t>(cell) * kRing + static_cast<std::size_t>(minute & (kRing - 1));
  if (index >= slots_.size()) return nullptr;
  const Slot& slot = slots_[index];
  return slot.minute == minute && slot.cars > 0 ? &slot : nullptr;
}

std::int32_t SegmentSpeedHistory::cars(std::int32_t xway, std::int32_t dir, std::int32_t seg,
                                       std::int32_t minute) const {
  const Slot* slot = find(cell_of(xway, dir, seg), minute);
  return slot ? slot->cars : 0;
}

std::optional<double> SegmentSpeedHistory::mean_speed(std::int32_t xway, std::int32_t dir,
                                                      std::int32_t seg, std::int32_t minute) const {
  const Slot* slot = find(cell_of(xway, dir, seg), minute);
  if (!slot || slot->cars_with_speed == 0) return std::nullopt;
  return static_cast<double>(slot->mean_sum_twelfths) /
         static_cast<double>(kTwelfths * slot->cars_with_speed);
}

std::optional<std::int32_t> SegmentSpeedHistory::lav(std::int32_t xway, std::int32_t dir,
                                                     std::int32_t seg, std::int32_t minute) const {
  double sum = 0;
  int minutes = 0;
  for (std::int32_t m = minute - kLavMinutes; m < minute; ++m) {
    if (auto mean = mean_speed(xway, dir, seg, m)) {
      sum += *mean;
      ++minutes;
    }
  }
  if (minutes == 0) return std::nullopt;
  return static_cast<std::int32_t>(sum / minutes);
}

}  // namespace cwf::lr
