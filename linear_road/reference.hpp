// A straightforward single-threaded Linear Road: every input record is answered on the spot, in
// input order, with no engine in between. It is the differential oracle for the workflow
// implementations and the speed they are measured against. Its semantics are the benchmark
// reference's (the Perl validator, see docs/linear-road.md "Reference implementation") except
// where that validator cannot follow the spec: re-entering cars start a new trip, and the toll
// of the segment a car leaves by the exit ramp is not charged.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "linear_road/accident_tracker.hpp"
#include "linear_road/answer_sink.hpp"
#include "linear_road/car_movement.hpp"
#include "linear_road/car_table.hpp"
#include "linear_road/historical_toll_table.hpp"
#include "linear_road/records.hpp"
#include "linear_road/segment_speed_history.hpp"
#include "linear_road/toll_rule.hpp"

namespace cwf::lr {

class Reference {
 public:
  // A car reappearing in the entrance lane more than this long after its last report is on a
  // new trip (it left and came back).
  static constexpr Seconds kReentryGap = 60;
  static constexpr std::int32_t kCongestedCars = lr::kCongestedCars;
  static constexpr std::int32_t kTollFreeLav = lr::kTollFreeLav;

  struct Counts {
    std::uint64_t position_reports = 0;
    std::uint64_t balance_queries = 0;
    std::uint64_t expenditure_queries = 0;
    std::uint64_t travel_time_queries = 0;  // type 4: not answered (no reference defines them)
    std::uint64_t tolls = 0;
    std::uint64_t nonzero_tolls = 0;
    std::uint64_t alerts = 0;
    std::uint64_t balances = 0;
    std::uint64_t expenditures = 0;
    std::uint64_t unknown_expenditures = 0;  // no historical row: answered with toll 0
    std::uint64_t new_trips = 0;             // re-entries (not a car's first trip)
  };

  // `history` answers type-3 queries; it must outlive the Reference.
  Reference(AnswerSink& sink, const HistoricalTollTable& history);

  // Records must come in non-decreasing time, and must be accepted by parse_input_line. A
  // position report whose speed is out of range is used for everything but the statistics.
  void process(const InputRecord& record);

  const Counts& counts() const { return counts_; }
  const std::vector<AccidentTracker::Accident>& accidents() const { return accidents_.accidents(); }

 private:
  struct CarState {
    CarPosition position;
    std::int32_t pending_toll = 0;  // notified for the current segment, charged on leaving it
    std::int64_t balance = 0;       // every toll charged so far
    CarMinuteSpeeds speeds;
  };

  void position_report(const InputRecord& r);
  void notify(const InputRecord& r, CarState& state);
  void balance_query(const InputRecord& r);
  void expenditure_query(const InputRecord& r);

  AnswerSink& sink_;
  const HistoricalTollTable& history_;
  SegmentSpeedHistory speeds_;
  AccidentTracker accidents_;
  CarTable<CarState> cars_;
  Counts counts_;
};

}  // namespace cwf::lr
