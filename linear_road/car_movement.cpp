#include "linear_road/car_movement.hpp"

#include "linear_road/car_trips.hpp"  // kReentryGap

namespace cwf::lr {

CarMove move_car(CarPosition& car, const InputRecord& r, std::int32_t stopped_reports) {
  CarMove move;
  move.first_report = car.last_time < 0;
  move.new_trip =
      move.first_report || (r.lane == kEntranceLane && r.time - car.last_time > kReentryGap);
  bool same_place = !move.new_trip && car.xway == r.xway && car.dir == r.dir &&
                    car.lane == r.lane && car.pos == r.pos;
  if (!same_place && car.run >= stopped_reports) {
    move.left_stop = true;
    move.stop = StoppedPlace{car.xway, car.dir, car.lane, car.pos};
  }
  car.run = same_place ? car.run + 1 : 1;
  move.new_segment = move.new_trip || car.xway != r.xway || car.dir != r.dir || car.seg != r.seg;
  car.last_time = r.time;
  car.xway = r.xway;
  car.dir = r.dir;
  car.seg = r.seg;
  car.lane = r.lane;
  car.pos = r.pos;
  return move;
}

}  // namespace cwf::lr
