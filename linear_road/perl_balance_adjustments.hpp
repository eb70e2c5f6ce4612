// Why a correct account balance can differ from every answer the Perl validator accepts, and by
// how much, worked out per query from the input (CarTrips) and the Perl toll rows:
//  - exit tolls: Perl charges the toll of the segment in which a car leaves by the exit ramp;
//    the spec does not (a correct balance is lower);
//  - re-entry tolls: Perl has no toll rows for a re-entered car's second visit to a segment, so
//    it never charges their tolls; the product's explained extra notifications carry them (a
//    correct balance is higher);
//  - exit-lane move: when the query comes with an exit-lane report in the next segment, the car
//    has just moved on and owes the toll of the segment it left; Perl's only answer then is the
//    balance before that charge (a correct balance may be higher by that toll).
// Rules and the counts on the shared dataset: docs/linear-road.md, section Validation.
#pragma once

#include <cstdint>
#include <vector>

#include "linear_road/car_trips.hpp"
#include "linear_road/perl_segment_index.hpp"

namespace cwf::lr {

// A toll notified to a car at `time`.
struct CarToll {
  std::int32_t carid;
  Seconds time;
  std::int64_t toll;
};

struct BalanceAdjustments {
  std::int64_t exit_tolls = 0;           // to subtract
  std::int64_t reentry_tolls = 0;        // to add: notified before the query second
  std::int64_t reentry_latest = 0;       // the latest of those (its segment may not be left yet)
  std::int64_t exit_lane_move_toll = 0;  // to add
};

// Which adjustments made a balance equal to one of Perl's answers.
struct AdjustedMatch {
  bool matched = false;
  bool less_exit_tolls = false;
  bool plus_reentry_tolls = false;
  bool plus_exit_lane_move_toll = false;
};

class PerlBalanceAdjuster {
 public:
  // `reentry_tolls`: the product's explained extra toll notifications (any order).
  PerlBalanceAdjuster(const CarTrips& trips, const PerlSegmentIndex& index,
                      std::vector<CarToll> reentry_tolls);

  BalanceAdjustments at(std::int32_t carid, Seconds query_time) const;
  // The Perl toll rows charged although the car left by the exit ramp of that segment.
  std::size_t exit_charges() const { return exit_charges_.size(); }

 private:
  const CarTrips& trips_;
  const PerlSegmentIndex& index_;
  std::vector<CarToll> exit_charges_;   // sorted by carid, time
  std::vector<CarToll> reentry_tolls_;  // sorted by carid, time
};

// Tries Perl's answers with every combination of the adjustments, fewest first.
AdjustedMatch match_adjusted(const std::vector<std::int64_t>& perl_answers,
                             const BalanceAdjustments& adjustments, std::int64_t balance);

}  // namespace cwf::lr
