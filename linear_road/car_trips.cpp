#include "linear_road/car_trips.hpp"

#include <algorithm>

#include "linear_road/answer_keys.hpp"
#include "linear_road/integer_file.hpp"

namespace cwf::lr {

namespace {

// Car ids index a vector of states; anything beyond this is treated as a damaged line.
constexpr std::int64_t kMaxCarId = (1 << 24) - 1;

struct CarState {
  Seconds last_time = -1;
  Seconds trip_start = -1;
  Seconds segment_start = -1;
  std::int32_t trip = -1;
  std::int8_t dir = -1;
  std::int8_t seg = -1;
  std::int8_t lane = -1;
};

}  // namespace

CarTrips CarTrips::read(const std::string& input_path, const std::vector<std::uint64_t>& wanted,
                        MalformedLines& malformed) {
  CarTrips trips;
  std::vector<CarState> cars;
  auto close_trip = [&](std::int32_t carid, const CarState& car) {
    if (car.lane == kExitLane)
      trips.exits_.push_back({carid, car.segment_start, car.last_time, car.dir, car.seg});
  };
  read_integer_file(
      input_path, InputRecord::kFields, InputRecord::kFields, malformed,
      [&](const std::int64_t* f, int, std::uint64_t, std::string_view) {
        if (f[0] != static_cast<std::int64_t>(InputType::position_report)) return std::string();
        std::int64_t time = f[1], carid = f[2], lane = f[5], dir = f[6], seg = f[7];
        if (time < 0 || time > 1'000'000'000 || carid < 0 || carid > kMaxCarId)
          return std::string("time or carid out of range");
        if (lane < 0 || lane > kExitLane || dir < 0 || dir > 1 || seg < 0 || seg > 127)
          return std::string("lane, dir or seg out of range");
        ++trips.reports_;
        if (static_cast<std::size_t>(carid) >= cars.size())
          cars.resize(static_cast<std::size_t>(carid) + 1);
        CarState& car = cars[static_cast<std::size_t>(carid)];
        const auto t = static_cast<Seconds>(time);
        bool new_trip = car.trip < 0;
        if (!new_trip && lane == kEntranceLane && t - car.last_time > kReentryGap) {
          close_trip(static_cast<std::int32_t>(carid), car);
          new_trip = true;
          ++trips.reentries_;
        }
        const std::int8_t previous_seg = new_trip ? std::int8_t{-1} : car.seg;
        if (new_trip) {
          ++car.trip;
          car.trip_start = t;
          car.segment_start = t;
        } else if (dir != car.dir || seg != car.seg) {
          car.segment_start = t;
        }
        car.last_time = t;
        car.dir = static_cast<std::int8_t>(dir);
        car.seg = static_cast<std::int8_t>(seg);
        car.lane = static_cast<std::int8_t>(lane);
        const auto id = static_cast<std::int32_t>(carid);
        if (std::binary_search(wanted.begin(), wanted.end(), car_time_key(id, t)))
          trips.places_.push_back({id, t, car.trip_start, car.segment_start, car.trip, car.dir,
                                   car.seg, car.lane, previous_seg});
        return std::string();
      });
  for (std::size_t carid = 0; carid < cars.size(); ++carid)
    if (cars[carid].trip >= 0) close_trip(static_cast<std::int32_t>(carid), cars[carid]);
  auto by_car_time = [](const auto& a, const auto& b) {
    return car_time_key(a.carid, a.time) < car_time_key(b.carid, b.time);
  };
  std::sort(trips.places_.begin(), trips.places_.end(), by_car_time);
  std::sort(trips.exits_.begin(), trips.exits_.end(), [](const auto& a, const auto& b) {
    return car_time_key(a.carid, a.exited) < car_time_key(b.carid, b.exited);
  });
  return trips;
}

const ReportPlace* CarTrips::place(std::int32_t carid, Seconds time) const {
  auto key = car_time_key(carid, time);
  auto it = std::lower_bound(
      places_.begin(), places_.end(), key,
      [](const ReportPlace& p, std::uint64_t k) { return car_time_key(p.carid, p.time) < k; });
  if (it == places_.end() || car_time_key(it->carid, it->time) != key) return nullptr;
  return &*it;
}

}  // namespace cwf::lr
