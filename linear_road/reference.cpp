#include "linear_road/reference.hpp"

namespace cwf::lr {

Reference::Reference(AnswerSink& sink, const HistoricalTollTable& history)
    : sink_(sink), history_(history) {}

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
  CarState& state = cars_[r.carid];
  const std::int32_t minute = minute_of(r.time);

  CarMove move = move_car(state.position, r, AccidentTracker::kStoppedReports);
  if (move.new_trip && !move.first_report) {
    ++counts_.new_trips;
    // The previous trip ended in its last segment: by the exit ramp that toll is not charged
    // (and a trip that just stopped reporting never reached a next segment either).
    state.pending_toll = 0;
  }
  if (move.left_stop)
    accidents_.left(r.carid, move.stop.xway, move.stop.dir, move.stop.lane, move.stop.pos);

  speeds_.add(state.speeds, r.xway, r.dir, r.seg, minute, r.speed);
  accidents_.report(r.carid, r.time, r.xway, r.dir, r.lane, r.seg, r.pos, state.position.run);

  if (!move.new_segment) return;
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

  std::int32_t toll = segment_toll(cars, lav, accident != nullptr);

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
  const CarState* state = cars_.find(r.carid);
  std::int64_t balance = state ? state->balance : 0;
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
