// The trips of every car in a Linear Road input, as far as the validation needs them to explain
// differences from the Perl validator:
//  - a car re-appearing in the entrance lane more than 60 s after its previous report starts a
//    new trip (the spec's re-entering car);
//  - a trip whose last report is in the exit lane ends in that report's segment; the first time
//    the car reported in that segment during the trip tells which toll notification it was.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "linear_road/malformed_lines.hpp"
#include "linear_road/records.hpp"

namespace cwf::lr {

// Gap after which an entrance-lane report starts a new trip of the same car.
constexpr Seconds kReentryGap = 60;

// One position report and where it stands in its car's trips.
struct ReportPlace {
  std::int32_t carid = -1;
  Seconds time = -1;
  Seconds trip_start = -1;     // the trip's first report
  Seconds segment_start = -1;  // the car's first report in this dir/seg during the trip
  std::int32_t trip = -1;      // 0: the car's first trip
  std::int8_t dir = -1;
  std::int8_t seg = -1;
  std::int8_t lane = -1;
  std::int8_t previous_seg = -1;  // of the car's previous report in the trip; -1 at its start
};

// A trip that ends by the exit lane, in the segment it was in since `entered`.
struct ExitSegment {
  std::int32_t carid;
  Seconds entered;  // the car's first report in the segment during this trip
  Seconds exited;   // its exit-lane report
  std::int8_t dir;
  std::int8_t seg;
};

class CarTrips {
 public:
  // Reads the input's position reports (plain or .xz). The place of every report whose
  // car_time_key is in `wanted` (sorted) is kept. Throws DataFileError when unreadable.
  static CarTrips read(const std::string& input_path, const std::vector<std::uint64_t>& wanted,
                       MalformedLines& malformed);

  // The kept place of the report of `carid` at `time`, or null.
  const ReportPlace* place(std::int32_t carid, Seconds time) const;
  // Sorted by carid, then time.
  const std::vector<ExitSegment>& exit_segments() const { return exits_; }

  std::uint64_t position_reports() const { return reports_; }
  std::uint64_t reentries() const { return reentries_; }

 private:
  std::vector<ReportPlace> places_;  // sorted by car_time_key
  std::vector<ExitSegment> exits_;
  std::uint64_t reports_ = 0;
  std::uint64_t reentries_ = 0;
};

}  // namespace cwf::lr
