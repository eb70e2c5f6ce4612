// Stopped cars and the accidents they make, as the Linear Road reference (the Perl validator)
// defines them:
//  - a car is stopped once it has made 4 consecutive reports at the same (xway, lane, pos, dir);
//  - an accident is two distinct stopped cars at the same place (same lane and position);
//  - it is in force from the minute after its detection through the minute after the last
//    minute in which two of its cars were still reporting from the place with five consecutive
//    stopped reports each: the Perl validator's window, which counts a pair at time t only if
//    both cars are still there at t + 120 s, and so ends at (minute of that last report) + 1.
//  - accidents are found per place: a new pair at a place whose accident has ended is a new
//    accident.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "linear_road/records.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::lr {

class AccidentTracker {
 public:
  static constexpr std::int32_t kStoppedReports = 4;
  static constexpr std::int32_t kDownstreamSegments = 4;

  struct Accident {
    std::int32_t xway;
    std::int32_t dir;
    std::int32_t seg;
    std::int32_t pos;
    Seconds detected;      // report that made the second car count as stopped
    Seconds last_present;  // latest report confirming two cars still stopped there
    std::int32_t car1;
    std::int32_t car2;

    std::int32_t first_minute() const { return minute_of(detected) + 1; }
    std::int32_t last_minute() const { return minute_of(last_present) + 1; }
  };

  // A position report of `carid` that is the `run`-th consecutive report at its place (run 1 is
  // a car that just arrived there). Reports must come in non-decreasing time.
  void report(std::int32_t carid, Seconds time, std::int32_t xway, std::int32_t dir,
              std::int32_t lane, std::int32_t seg, std::int32_t pos, std::int32_t run);
  // The car left the place it was stopped at (moved, or started a new trip).
  void left(std::int32_t carid, std::int32_t xway, std::int32_t dir, std::int32_t lane,
            std::int32_t pos);

  // The accident in force during `minute` at most 4 segments downstream of `seg` (seg..seg+4
  // when dir is 0, seg-4..seg when dir is 1), nearest first; null when there is none.
  const Accident* ahead(std::int32_t xway, std::int32_t dir, std::int32_t seg,
                        std::int32_t minute) const;

  // Every accident seen so far, in order of detection.
  const std::vector<Accident>& accidents() const { return accidents_; }

  // Checkpoints: the cars stopped at each place and the accidents.
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  struct StoppedCar {
    std::int32_t carid;
    Seconds last_time;
    std::int32_t run;
  };
  static std::uint64_t place_key(std::int32_t xway, std::int32_t dir, std::int32_t lane,
                                 std::int32_t pos) {
    return ((static_cast<std::uint64_t>(static_cast<std::uint32_t>(xway)) * 2 +
             static_cast<std::uint64_t>(dir)) *
                8 +
            static_cast<std::uint64_t>(lane)) *
               (1ull << 24) +
           static_cast<std::uint64_t>(pos);
  }
  Accident* current_accident_at(std::int32_t xway, std::int32_t dir, std::int32_t pos,
                                std::int32_t minute);

  std::unordered_map<std::uint64_t, std::vector<StoppedCar>> stopped_;  // per place
  std::vector<Accident> accidents_;
};

}  // namespace cwf::lr
