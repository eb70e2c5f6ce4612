#include "linear_road/perl_balance_adjustments.hpp"

#include <algorithm>
#include <tuple>

namespace cwf::lr {

namespace {

bool by_car_time(const CarToll& a, const CarToll& b) {
  return car_time_key(a.carid, a.time) < car_time_key(b.carid, b.time);
}

// The tolls of `carid` notified before `time` (Perl's balance counts the tolls notified before
// the query's second), and the latest of them.
std::pair<std::int64_t, std::int64_t> tolls_before(const std::vector<CarToll>& tolls,
                                                   std::int32_t carid, Seconds time) {
  auto it = std::lower_bound(tolls.begin(), tolls.end(), CarToll{carid, 0, 0}, by_car_time);
  std::int64_t sum = 0, latest = 0;
  for (; it != tolls.end() && it->carid == carid && it->time < time; ++it) {
    sum += it->toll;
    latest = it->toll;
  }
  return {sum, latest};
}

}  // namespace

PerlBalanceAdjuster::PerlBalanceAdjuster(const CarTrips& trips, const PerlSegmentIndex& index,
                                         std::vector<CarToll> reentry_tolls)
    : trips_(trips), index_(index), reentry_tolls_(std::move(reentry_tolls)) {
  for (const ExitSegment& x : trips.exit_segments()) {
    // Perl's row belongs to this visit only when it lies within it; a row from an earlier trip
    // was a segment the car moved on from then.
    const PerlSegmentRow* row = index.find(x.carid, x.dir, x.seg);
    if (row && row->toll > 0 && row->time >= x.entered && row->time <= x.exited)
      exit_charges_.push_back({x.carid, row->time, row->toll});
  }
  std::sort(exit_charges_.begin(), exit_charges_.end(), by_car_time);
  std::sort(reentry_tolls_.begin(), reentry_tolls_.end(), by_car_time);
}

BalanceAdjustments PerlBalanceAdjuster::at(std::int32_t carid, Seconds query_time) const {
  BalanceAdjustments a;
  a.exit_tolls = tolls_before(exit_charges_, carid, query_time).first;
  std::tie(a.reentry_tolls, a.reentry_latest) = tolls_before(reentry_tolls_, carid, query_time);
  const ReportPlace* place = trips_.place(carid, query_time);
  if (place && place->lane == kExitLane && place->segment_start == query_time &&
      place->previous_seg >= 0 && place->previous_seg != place->seg) {
    const PerlSegmentRow* left = index_.find(carid, place->dir, place->previous_seg);
    if (left && left->time >= place->trip_start && left->time < query_time)
      a.exit_lane_move_toll = left->toll;
  }
  return a;
}

AdjustedMatch match_adjusted(const std::vector<std::int64_t>& perl_answers,
                             const BalanceAdjustments& adjustments, std::int64_t balance) {
  const std::int64_t reentry_options[] = {adjustments.reentry_tolls,
                                          adjustments.reentry_tolls - adjustments.reentry_latest};
  AdjustedMatch best;
  int best_used = 4;
  for (int mask = 1; mask < 8; ++mask) {
    const bool exit = mask & 1, reentry = mask & 2, move = mask & 4;
    if ((exit && adjustments.exit_tolls == 0) || (reentry && adjustments.reentry_tolls == 0) ||
        (move && adjustments.exit_lane_move_toll == 0))
      continue;
    const int used = exit + reentry + move;
    if (used >= best_used) continue;
    for (std::int64_t reentry_tolls : reentry_options) {
      std::int64_t delta = (reentry ? reentry_tolls : 0) - (exit ? adjustments.exit_tolls : 0) +
                           (move ? adjustments.exit_lane_move_toll : 0);
      if (std::find(perl_answers.begin(), perl_answers.end(), balance - delta) ==
          perl_answers.end())
        continue;
      best = {true, exit, reentry, move};
      best_used = used;
      break;
    }
  }
  return best;
}

}  // namespace cwf::lr
