// Where a car is and how its latest position report moved it: the per-car bookkeeping that the
// reference and the workflow's accident detection share, so that both decide "new trip", "new
// segment" and "still at the same place" by the same rules.
//  - a car's first report, or an entrance-lane report more than kReentryGap after its previous
//    one, starts a trip (a re-entering car is a new trip);
//  - a report in another xway, dir or seg than the previous one, or starting a trip, enters a
//    segment (that is when tolls are notified and the previous segment's toll charged);
//  - consecutive reports at the same (xway, dir, lane, pos) in one trip count the car's stop.
#pragma once

#include <cstdint>

#include "linear_road/records.hpp"

namespace cwf::lr {

struct CarPosition {
  Seconds last_time = -1;  // -1: never seen
  std::int32_t xway = -1, dir = -1, seg = -1, lane = -1, pos = -1;
  std::int32_t run = 0;  // consecutive reports at this (xway, lane, pos, dir)
};

// The place a car was stopped at (run >= 4) before it moved.
struct StoppedPlace {
  std::int32_t xway, dir, lane, pos;
};

struct CarMove {
  bool first_report = false;  // the car was never seen before
  bool new_trip = false;      // first report, or a re-entry
  bool new_segment = false;   // a new trip, or another xway/dir/seg than the previous report
  bool left_stop = false;     // the car was stopped and is no longer at that place
  StoppedPlace stop{};        // where, when left_stop
};

// Moves `car` to the place of position report `r` (which must not be earlier than the car's
// previous report) and says what changed. `stopped_reports` is the run that makes a car stopped.
CarMove move_car(CarPosition& car, const InputRecord& r, std::int32_t stopped_reports);

}  // namespace cwf::lr
