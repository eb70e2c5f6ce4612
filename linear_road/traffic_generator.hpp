// A Linear Road traffic simulation that writes the benchmark's input: cars enter an expressway
// through an entrance ramp, drive in the travel lanes at a speed that falls with the number of cars
// in their segment, report their position every 30 s and leave through an exit ramp. A segment
// whose cars reach jam density admits no more cars (they queue in the segment behind it), so a
// queue spreads upstream. Besides the entries spread over the whole road, whose rate rises and
// falls over the run (a half sine, like the original generator), every road has one busy entrance
// ramp with rush periods from the start of the run: the ramp's merge segment jams within a few
// minutes and the queue reaches back over several segments, so tolls are charged there even in a
// short run. Some cars come back for a second trip, pairs of cars are stopped by planted
// accidents, and about one report in a hundred is followed by an account-balance or
// daily-expenditure query.
//
// Everything is integer arithmetic driven by DeterministicRandom, so a seed gives byte-identical
// data on every platform.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>

#include "linear_road/records.hpp"

namespace cwf::lr {

// Daily-expenditure queries ask about day 1 (yesterday) .. 69.
constexpr std::int32_t kHistoryDays = 69;

struct TrafficOptions {
  int xways = 1;
  int minutes = 180;
  std::uint64_t seed = 1;

  // Cars per second and expressway entering anywhere on the road at the top of the half-sine
  // ramp, and at its ends.
  int peak_entries_per_second = 14;
  int base_entries_per_second = 2;
  // Every road (expressway and direction) has one busy entrance ramp. Its rush periods start at
  // the beginning of the run and every minutes_between_rushes minutes after it, last
  // rush_minutes, and ramp up to rush_ramp_entries_per_minute cars (give or take a fifth per
  // road) within their first two minutes; between them calm_ramp_entries_per_minute join there.
  int rush_ramp_entries_per_minute = 100;
  int calm_ramp_entries_per_minute = 10;
  int rush_minutes = 12;
  int minutes_between_rushes = 30;
  // Cars in one segment (one direction, three lanes, a mile) at which traffic would stand still
  // in Greenshields' model; a segment lets through at most preferred speed * jam / 4 cars per
  // hour (6,500 at 65 mph), and a segment holding this many cars admits no more.
  int jam_cars_per_segment = 400;
  // A trip covers 1 .. this many segments (fewer near the end of the road).
  int longest_trip_segments = 30;
  // Share of cars that come back for a second trip, 61 s to 15 min after leaving (within the
  // run: cars that leave early come back more often, so that short runs reach this share too).
  int reentry_per_million = 100'000;
  // Share of reports followed by a query; one query in six asks for a daily expenditure.
  int query_per_million = 10'000;
  // Accidents planted per expressway: one per this many minutes of run (at least one).
  int minutes_per_accident = 20;
};

struct TrafficStats {
  std::int64_t cars = 0;  // distinct car ids, 0 .. cars-1
  std::int64_t trips = 0;
  std::int64_t reentries = 0;
  // Trips whose lane-4 report is the first report in its segment (the toll of the segment
  // before is charged), and those that leave in a segment they reported in before (not charged).
  std::int64_t exits_into_next_segment = 0;
  std::int64_t exits_within_segment = 0;
  std::int64_t accidents_scheduled = 0;
  std::int64_t accidents_planted = 0;  // both cars stopped
  std::int64_t position_reports = 0;
  std::int64_t balance_queries = 0;
  std::int64_t expenditure_queries = 0;
};

// For each (carid, day) a daily-expenditure query asked about: the expressway it asked about. The
// historical tolls must hold that expressway for the pair.
using ExpenditureQuestions = std::unordered_map<std::uint64_t, std::int32_t>;
inline std::uint64_t expenditure_key(std::int32_t carid, std::int32_t day) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(carid)) << 8) |
         static_cast<std::uint32_t>(day);
}

class TrafficGenerator {
 public:
  using Sink = std::function<void(const InputRecord&)>;

  explicit TrafficGenerator(const TrafficOptions& options);

  // Simulates the whole run and hands every input record to `sink` in time order (a query
  // straight after the report it belongs to). Call once.
  void run(const Sink& sink);

  const TrafficStats& stats() const { return stats_; }
  const ExpenditureQuestions& expenditure_questions() const { return questions_; }

 private:
  struct Simulation;
  TrafficOptions options_;
  TrafficStats stats_;
  ExpenditureQuestions questions_;
};

}  // namespace cwf::lr
