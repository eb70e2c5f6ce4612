#include "linear_road/reference.hpp"

#include <algorithm>

namespace cwf::lr {

namespace {
constexpr std::int32_t kDenseCarids = 1 << 24;
}  // namespace

Reference::Reference(AnswerSink& sink, const HistoricalTollTable& history)
    : sink_(sink), history_(history) {}

Reference::CarState& Reference::car(std::int32_t carid) {
  if (carid >= kDenseCarids) return sparse_cars_[carid];
  auto index = static_cast<std::size_t>(carid);
  if (index >= cars_.size()) cars_.resize(std::max(index + 1, cars_.size() * 2));
  return cars_[index];
}

void Reference::process(const InputRecord& record) {
  switch (static_cast<InputType>(record.type)) {
    case InputType::position_report:
      ++counts_.position_reports;
      position_report(record);
      break;
    case InputType::account_balance:
      ++counts_.balance_queries;
      balance_query(record);
      break;
    case InputType::daily_expenditure:
      ++counts_.expenditure_queries;
      expenditure_query(record);
      break;
    case InputType::travel_time:
      ++counts_.travel_time_queries;
      break;
  }
}

void Reference::position_report(const InputRecord& r) {
  CarState& state = car(r.carid);
  const std::int32_t minute = minute_of(r.time);

  bool first_report = state.last_time < 0;
  bool new_trip =
      first_report || (r.lane == kEntranceLane && r.time - state.last_time > kReentryGap);
  if (new_trip && !first_report) {
    ++counts_.new_trips;
    // The previous trip ended in its last segment: by the exit ramp that toll is not charged
    // (and a trip that just stopped reporting never reached a next segment either).
    state.pending_toll = 0;
  }

  bool same_place = !new_trip && state.xway == r.xway && state.dir == r.dir &&
                    state.lane == r.lane && state.pos == r.pos;
  if (!same_place && state.run >= AccidentTracker::kStoppedReports)
    accidents_.left(r.carid, state.xway, state.dir, state.lane, state.pos);
  state.run = same_place ? state.run + 1 : 1;
  bool new_segment = new_trip || state.xway != r.xway || state.dir != r.dir || state.seg != r.seg;

  state.last_time = r.time;
  state.xway = r.xway;
  state.dir = r.dir;
  state.seg = r.seg;
  state.lane = r.lane;
  state.pos = r.pos;

  speeds_.add(state.speeds, r.xway, r.dir, r.seg, minute, r.speed);
  accidents_.report(r.carid, r.time, r.xway, r.dir, r.lane, r.seg, r.pos, state.run);

  if (!new_segment) return;
  // Leaving a segment (in a travel lane or by the exit ramp of the next one) pays its toll.
  state.balance += state.pending_toll;
  state.pending_toll = 0;
  if (r.lane != kExitLane) notify(r, state);
}

void Reference::notify(const InputRecord& r, CarState& state) {
  const std::int32_t minute = minute_of(r.time);
  std::optional<std::int32_t> lav = speeds_.lav(r.xway, r.dir, r.seg, minute);
  std::int32_t cars = speeds_.cars(r.xway, r.dir, r.seg, minute - 1);
  const AccidentTracker::Accident* accident = accidents_.ahead(r.xway, r.dir, r.seg, minute);

  std::int32_t toll = 0;
  // No LAV (no car in the last five minutes) means nothing is known to be slow; but then no car
  // was there in the previous minute either, so the count rule already makes the toll 0.
  if (!accident && cars > kCongestedCars && lav.value_or(-1) < kTollFreeLav)
    toll = 2 * (cars - kCongestedCars) * (cars - kCongestedCars);

  if (accident) {
    sink_.alert(AccidentAlert{r.time, r.time, r.xway, accident->seg, r.dir, r.carid});
    ++counts_.alerts;
  }
  // LAV 0 when there is no data (the Perl validator writes -1 there; ValidateMTBQ writes 0).
  sink_.toll(TollNotification{r.carid, r.time, r.time, lav.value_or(0), toll});
  ++counts_.tolls;
  if (toll > 0) ++counts_.nonzero_tolls;
  state.pending_toll = toll;
}

void Reference::balance_query(const InputRecord& r) {
  // A car that never reported has paid nothing; it is not made to exist by asking.
  std::int64_t balance = 0;
  if (r.carid < kDenseCarids) {
    if (static_cast<std::size_t>(r.carid) < cars_.size())
      balance = cars_[static_cast<std::size_t>(r.carid)].balance;
  } else if (auto found = sparse_cars_.find(r.carid); found != sparse_cars_.end()) {
    balance = found->second.balance;
  }
  sink_.balance(BalanceAnswer{r.time, r.time, r.time, r.qid, balance});
  ++counts_.balances;
}

void Reference::expenditure_query(const InputRecord& r) {
  std::optional<std::int32_t> toll = history_.lookup(r.carid, r.day, r.xway);
  if (!toll) ++counts_.unknown_expenditures;
  sink_.expenditure(ExpenditureAnswer{r.time, r.time, r.qid, toll.value_or(0)});
  ++counts_.expenditures;
}

}  // namespace cwf::lr
