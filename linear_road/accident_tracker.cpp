#include "linear_road/accident_tracker.hpp"

#include <algorithm>
#include <cstdlib>

#include "runtime/snapshot/sorted_keys.hpp"
#include "runtime/snapshot/trivial_array_snapshot.hpp"

namespace cwf::lr {

namespace {
// Cars report every 30 s: a partner whose latest report is older has left (or stopped reporting).
constexpr Seconds kReportInterval = 30;
}  // namespace

void AccidentTracker::save(SnapshotWriter& out) const {
  const std::vector<std::uint64_t> places = sorted_keys(stopped_);
  out.write_u64(places.size());
  for (std::uint64_t place : places) {
    out.write_u64(place);
    write_trivial_array(out, std::span<const StoppedCar>(stopped_.at(place)));
  }
  write_trivial_array(out, std::span<const Accident>(accidents_));
}

void AccidentTracker::restore(SnapshotReader& in) {
  stopped_.clear();
  for (std::size_t n = in.read_count("the number of places with stopped cars"); n > 0; --n) {
    std::uint64_t place = in.read_u64("a place with stopped cars");
    stopped_[place] = read_trivial_array<StoppedCar>(in, "the cars stopped at a place");
  }
  accidents_ = read_trivial_array<Accident>(in, "the accidents");
}

AccidentTracker::Accident* AccidentTracker::current_accident_at(std::int32_t xway, std::int32_t dir,
                                                                std::int32_t pos,
                                                                std::int32_t minute) {
  for (auto it = accidents_.rbegin(); it != accidents_.rend(); ++it) {
    // Still in force (or about to be): the same accident, not a new one at the same place.
    if (it->xway == xway && it->dir == dir && it->pos == pos && it->last_minute() >= minute)
      return &*it;
  }
  return nullptr;
}

void AccidentTracker::report(std::int32_t carid, Seconds time, std::int32_t xway, std::int32_t dir,
                             std::int32_t lane, std::int32_t seg, std::int32_t pos,
                             std::int32_t run) {
  if (run < kStoppedReports) return;
  auto& cars = stopped_[place_key(xway, dir, lane, pos)];
  auto self =
      std::find_if(cars.begin(), cars.end(), [&](const StoppedCar& c) { return c.carid == carid; });
  if (self == cars.end()) {
    cars.push_back({carid, time, run});
  } else {
    self->last_time = time;
    self->run = run;
  }
  for (const StoppedCar& other : cars) {
    if (other.carid == carid || other.last_time < time - kReportInterval) continue;
    std::int32_t minute = minute_of(time);
    Accident* accident = current_accident_at(xway, dir, pos, minute);
    if (!accident) {
      accidents_.push_back({xway, dir, seg, pos, time, time, std::min(carid, other.carid),
                            std::max(carid, other.carid)});
      continue;
    }
    // One more report of two cars stopped for 5 reports (120 s): the pair Perl counts.
    if (run > kStoppedReports && other.run > kStoppedReports)
      accident->last_present = std::max(accident->last_present, time);
  }
}

void AccidentTracker::left(std::int32_t carid, std::int32_t xway, std::int32_t dir,
                           std::int32_t lane, std::int32_t pos) {
  auto found = stopped_.find(place_key(xway, dir, lane, pos));
  if (found == stopped_.end()) return;
  auto& cars = found->second;
  std::erase_if(cars, [&](const StoppedCar& c) { return c.carid == carid; });
  if (cars.empty()) stopped_.erase(found);
}

const AccidentTracker::Accident* AccidentTracker::ahead(std::int32_t xway, std::int32_t dir,
                                                        std::int32_t seg,
                                                        std::int32_t minute) const {
  const Accident* nearest = nullptr;
  int nearest_distance = kDownstreamSegments + 1;
  for (const Accident& a : accidents_) {
    if (a.xway != xway || a.dir != dir) continue;
    if (minute < a.first_minute() || minute > a.last_minute()) continue;
    int distance = dir == 0 ? a.seg - seg : seg - a.seg;
    if (distance < 0 || distance >= nearest_distance) continue;
    nearest = &a;
    nearest_distance = distance;
  }
  return nearest;
}

}  // namespace cwf::lr
