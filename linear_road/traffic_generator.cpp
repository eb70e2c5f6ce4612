#include "linear_road/traffic_generator.hpp"

#include <algorithm>
#include <limits>
#include <queue>
#include <vector>

#include "linear_road/deterministic_random.hpp"

namespace cwf::lr {

namespace {

constexpr std::int32_t kSegments = 100;
constexpr std::int32_t kRoadFeet = kSegments * kSegmentFeet;
constexpr Seconds kReportInterval = 30;
// Feet driven in one report interval per mph: 5280 ft / 3600 s * 30 s. At up to 100 mph a car
// drives less than a segment between two reports, so it reports in every segment it crosses.
constexpr std::int32_t kFeetPerMphAndInterval = 44;
// Moving cars never report the same position twice, so only planted accidents stop cars.
constexpr std::int32_t kSlowestMovingSpeed = 5;
constexpr std::int32_t kFastestSpeed = 100;
constexpr std::int32_t kSlowestPreferredSpeed = 50;
constexpr std::int32_t kFastestPreferredSpeed = 80;
// Ramps, measured in the direction of travel from the start of their segment.
constexpr std::int32_t kEntranceRampOffset = kSegmentFeet / 4;
// Exit ramps lie anywhere between a sixteenth and fifteen sixteenths into their segment: near
// its start a car often reaches the ramp straight from the segment before.
constexpr std::int32_t kNearestExitRampOffset = kSegmentFeet / 16;
constexpr std::int32_t kFarthestExitRampOffset = kSegmentFeet * 15 / 16;
// The busy entrance ramps lie in these segments (in travel order).
constexpr std::int32_t kFirstBusyRampSegment = 15;
constexpr std::int32_t kLastBusyRampSegment = 75;
// A car held back by a full segment ahead creeps on by at most this much per report (5 mph), and
// by half its distance to the end of its segment, so it never reports the same position twice.
constexpr std::int32_t kCreepFeet = 5 * 44;
// A busy ramp lets cars on while its segment is below nine tenths of jam density (the cars in
// the travel lanes get the rest, as when cars merge in turn), and at most this many wait on it:
// later arrivals take another road.
constexpr std::int64_t kLongestRampQueue = 60;
// A rush at a busy ramp reaches its full rate in this time.
constexpr Seconds kRushRise = 120;
constexpr std::int32_t kTravelLanes = 3;
constexpr std::int32_t kLaneChangePerMillion = 150'000;
constexpr std::int32_t kExpenditureQueryOneIn = 6;

// A returning car waits longer than the 60 s after which Linear Road counts it as a new trip.
constexpr Seconds kSoonestReturn = 61;
constexpr Seconds kLatestReturn = 15 * 60;
// How long the cars of an accident stand still once both have stopped: at least 8 reports each,
// well over the 4 identical reports that make a car count as stopped.
constexpr Seconds kShortestAccident = 4 * 60;
constexpr Seconds kLongestAccident = 10 * 60;
// A car stopped by an accident gives up waiting for a second car after this long.
constexpr Seconds kLongestWaitForSecondCar = 5 * 60;
// Cars this close behind an accident slow to two thirds: one lane of three is blocked.
constexpr std::int32_t kAccidentSlowdownFeet = 2 * kSegmentFeet;
// The entry process: each second, this many trials of equal chance make up the expected number
// of entries (a binomial draw, close to Poisson).
constexpr std::int64_t kEntryTrials = 128;

// The independent random streams, one per kind of decision.
enum Purpose : std::uint64_t { kEntries = 1, kDriving, kQueries, kAccidents, kReturns, kRamps };

// Positions are kept as the distance driven along the direction of travel ("along", 0 at the
// start of the road in either direction) and turned into the benchmark's pos on output.
std::int32_t position_of(std::int32_t dir, std::int32_t along) {
  return dir == 0 ? along : kRoadFeet - 1 - along;
}

struct Car {
  std::int32_t id = -1;
  std::int32_t xway = 0;
  std::int32_t dir = 0;
  std::int32_t along = 0;
  std::int32_t lane = kEntranceLane;
  std::int32_t speed = 0;  // as last reported
  std::int32_t preferred_speed = 0;
  std::int32_t exit_along = 0;  // where its exit ramp is
  std::int32_t accident = -1;   // the accident that holds it, if any
  Seconds stopped_until = -1;   // while held by an accident
  bool returning = false;       // on its second trip
  bool reported_in_exit_segment = false;
};

// One road's busy entrance ramp: cars that arrive while its segment is full wait on it.
struct BusyRamp {
  std::int32_t segment = 0;  // in travel order
  std::int64_t rush_entries_per_minute = 0;
  std::int64_t waiting = 0;
};

struct Accident {
  std::int32_t xway = 0;
  std::int32_t dir = 0;
  std::int32_t along = 0;
  std::int32_t lane = 1;
  Seconds start = 0;
  Seconds duration = 0;
  std::vector<std::uint32_t> stopped_cars;  // car slots, at most two
  Seconds first_stop = -1;
  Seconds clears = std::numeric_limits<Seconds>::max();
  bool abandoned = false;

  bool catching(Seconds now) const { return !abandoned && start <= now && stopped_cars.size() < 2; }
  bool blocking(Seconds now) const { return !abandoned && !stopped_cars.empty() && now < clears; }
};

struct Return {
  Seconds time;
  std::int32_t carid;
  // Earliest first; equal times by car id, so the order is fixed whatever the heap does.
  bool operator>(const Return& other) const {
    return time != other.time ? time > other.time : carid > other.carid;
  }
};

}  // namespace

struct TrafficGenerator::Simulation {
  const TrafficOptions& options;
  TrafficStats& stats;
  ExpenditureQuestions& questions;
  const Sink& sink;
  const Seconds duration;

  DeterministicRandom entries;
  DeterministicRandom driving;
  DeterministicRandom queries;
  DeterministicRandom accident_random;
  DeterministicRandom returns_random;
  DeterministicRandom ramp_random;

  std::vector<Car> cars;  // slots; a leaving car's slot is reused
  std::vector<std::uint32_t> free_slots;
  // The cars that report in second t are those of due[t % 30], each reporting every 30 s from
  // the second it entered.
  std::vector<std::uint32_t> due[kReportInterval];
  // Cars in each (xway, dir, segment in travel order) as of their last report.
  std::vector<std::int32_t> occupancy;
  std::vector<Accident> accidents;
  // Indexes into `accidents` per (xway, dir), so a car looks only at those on its road.
  std::vector<std::vector<std::size_t>> accidents_on_road;
  std::vector<BusyRamp> ramps;  // per road
  std::int64_t returns_scheduled = 0;
  std::priority_queue<Return, std::vector<Return>, std::greater<Return>> returns;
  std::int32_t next_carid = 0;
  std::int32_t next_qid = 0;

  Simulation(const TrafficOptions& o, TrafficStats& s, ExpenditureQuestions& q, const Sink& k)
      : options(o),
        stats(s),
        questions(q),
        sink(k),
        duration(static_cast<Seconds>(o.minutes) * 60),
        entries(DeterministicRandom::stream(o.seed, kEntries)),
        driving(DeterministicRandom::stream(o.seed, kDriving)),
        queries(DeterministicRandom::stream(o.seed, kQueries)),
        accident_random(DeterministicRandom::stream(o.seed, kAccidents)),
        returns_random(DeterministicRandom::stream(o.seed, kReturns)),
        ramp_random(DeterministicRandom::stream(o.seed, kRamps)),
        occupancy(static_cast<std::size_t>(o.xways) * 2 * kSegments, 0),
        accidents_on_road(static_cast<std::size_t>(o.xways) * 2),
        ramps(static_cast<std::size_t>(o.xways) * 2) {
    plan_accidents();
    for (BusyRamp& ramp : ramps) {
      ramp.segment = static_cast<std::int32_t>(
          ramp_random.between(kFirstBusyRampSegment, kLastBusyRampSegment));
      ramp.rush_entries_per_minute =
          static_cast<std::int64_t>(options.rush_ramp_entries_per_minute) *
          ramp_random.between(80, 120) / 100;
    }
  }

  static std::size_t road_of(std::int32_t xway, std::int32_t dir) {
    return static_cast<std::size_t>(xway) * 2 + static_cast<std::size_t>(dir);
  }
  std::size_t segment_of(const Car& car) const { return segment_at(car, car.along); }
  std::size_t segment_at(const Car& car, std::int32_t along) const {
    return road_of(car.xway, car.dir) * kSegments + static_cast<std::size_t>(along / kSegmentFeet);
  }

  // Spread over the run, at the busy middle of the road, one per expressway and
  // minutes_per_accident minutes.
  void plan_accidents() {
    const int per_xway = std::max(1, options.minutes / std::max(1, options.minutes_per_accident));
    for (int x = 0; x < options.xways; ++x) {
      for (int i = 0; i < per_xway; ++i) {
        Accident a;
        a.xway = x;
        a.dir = static_cast<std::int32_t>(accident_random.below(2));
        const Seconds slot = duration / per_xway;
        a.start = static_cast<Seconds>(slot * i + slot / 2 +
                                       accident_random.between(-slot / 8, slot / 8));
        const auto segment = static_cast<std::int32_t>(accident_random.between(30, 89));
        a.along =
            segment * kSegmentFeet + static_cast<std::int32_t>(accident_random.below(kSegmentFeet));
        a.lane = static_cast<std::int32_t>(accident_random.between(1, kTravelLanes));
        a.duration =
            static_cast<Seconds>(accident_random.between(kShortestAccident, kLongestAccident));
        accidents_on_road[road_of(a.xway, a.dir)].push_back(accidents.size());
        accidents.push_back(std::move(a));
      }
    }
    stats.accidents_scheduled = static_cast<std::int64_t>(accidents.size());
  }

  // Expected entries per second and expressway, in thousandths: the half sine sin(pi t / T),
  // computed with Bhaskara's rational approximation 16 p / (5 T^2 - 4 p), p = t (T - t), which
  // is within 0.2 % of it and needs no floating point.
  std::int64_t entry_rate_millis(Seconds t) const {
    const std::int64_t total = duration;
    const std::int64_t p = static_cast<std::int64_t>(t) * (total - t);
    const std::int64_t q = 5 * total * total - 4 * p;
    const std::int64_t rise = static_cast<std::int64_t>(options.peak_entries_per_second) -
                              options.base_entries_per_second;
    return options.base_entries_per_second * 1000 + rise * 1000 * 16 * p / q;
  }

  // A binomial draw of kEntryTrials trials with `millis` / 1000 expected successes.
  static int draw(DeterministicRandom& random, std::int64_t millis) {
    millis = std::min(millis, kEntryTrials * 1000);
    int count = 0;
    for (std::int64_t i = 0; i < kEntryTrials; ++i)
      if (static_cast<std::int64_t>(random.below(kEntryTrials * 1000)) < millis) ++count;
    return count;
  }

  // Expected arrivals per second at a busy ramp, in thousandths.
  std::int64_t ramp_rate_millis(const BusyRamp& ramp, Seconds t) const {
    const std::int64_t calm = options.calm_ramp_entries_per_minute;
    const Seconds period = static_cast<Seconds>(std::max(1, options.minutes_between_rushes)) * 60;
    const Seconds into = t % period;
    if (into >= static_cast<Seconds>(options.rush_minutes) * 60) return calm * 1000 / 60;
    const std::int64_t rise = std::max<std::int64_t>(0, ramp.rush_entries_per_minute - calm);
    return (calm + rise * std::min<Seconds>(into, kRushRise) / kRushRise) * 1000 / 60;
  }

  // Speed falls with the cars n in the segment (jam density J): gently while traffic flows
  // freely, preferred * (1 - n / 2J), up to n = 0.29 J, where the flow through the segment
  // peaks at a quarter of preferred speed * J cars/hour (a segment is a mile); beyond that the
  // traffic breaks down and cars drive preferred * J / 5n, so that a queue lets through a fifth
  // less than free traffic at its peak (the capacity drop of real motorways): the segments
  // downstream of a queue get less than they can carry and stay free, a queue forms only where
  // more cars arrive than a segment lets through and it dissolves when fewer do. In a queue the
  // speed is below 40 mph from n = 0.33 J (at 65 mph) and a fifth of the preferred speed at jam
  // density. Behind an accident the speed drops by a third and a queue forms there.
  std::int32_t driving_speed(const Car& car, Seconds now) {
    const std::int64_t jam = options.jam_cars_per_segment;
    // The density a car drives by is that half a segment ahead of it: its segment's and the
    // next one's, weighted by how far it is into its segment (the road is a line of segments,
    // each count taken at the segment's middle). So the front of a queue drives off into free
    // road and cars slow down before a queue, rather than whole segments moving at one speed.
    const std::int32_t into = car.along % kSegmentFeet;
    const std::size_t segment = segment_of(car);
    const std::int64_t next = car.along / kSegmentFeet + 1 < kSegments ? occupancy[segment + 1] : 0;
    const std::int64_t cars = std::max<std::int64_t>(
        1, (occupancy[segment] * (kSegmentFeet - into) + next * into) / kSegmentFeet);
    auto speed = static_cast<std::int32_t>(100 * cars <= 29 * jam
                                               ? car.preferred_speed * (2 * jam - cars) / (2 * jam)
                                               : car.preferred_speed * jam / (5 * cars));
    for (std::size_t index : accidents_on_road[road_of(car.xway, car.dir)]) {
      const Accident& a = accidents[index];
      if (!a.blocking(now)) continue;
      const std::int32_t distance = a.along - car.along;
      if (distance >= 0 && distance <= kAccidentSlowdownFeet) speed = speed * 2 / 3;
    }
    speed += static_cast<std::int32_t>(driving.between(-2, 2));  // nobody holds a speed exactly
    return std::clamp(speed, kSlowestMovingSpeed, kFastestSpeed);
  }

  void report(const Car& car, Seconds now) {
    InputRecord r;
    r.type = static_cast<std::int32_t>(InputType::position_report);
    r.time = now;
    r.carid = car.id;
    r.speed = car.speed;
    r.xway = car.xway;
    r.lane = car.lane;
    r.dir = car.dir;
    r.pos = position_of(car.dir, car.along);
    r.seg = r.pos / kSegmentFeet;
    sink(r);
    ++stats.position_reports;
    if (!queries.chance_per_million(static_cast<std::uint32_t>(options.query_per_million))) return;
    r.qid = next_qid++;
    if (queries.below(kExpenditureQueryOneIn) == 0) {
      r.type = static_cast<std::int32_t>(InputType::daily_expenditure);
      r.day = static_cast<std::int32_t>(queries.between(1, kHistoryDays));
      const auto asked =
          static_cast<std::int32_t>(queries.below(static_cast<std::uint64_t>(options.xways)));
      // A car asked twice about the same day asks about the same expressway, so that one
      // historical toll row answers both.
      r.xway = questions.emplace(expenditure_key(r.carid, r.day), asked).first->second;
      ++stats.expenditure_queries;
    } else {
      r.type = static_cast<std::int32_t>(InputType::account_balance);
      ++stats.balance_queries;
    }
    sink(r);
  }

  // A car entering at a random place of a random direction of `xway`.
  void enter(std::int32_t carid, std::int32_t xway, bool returning, Seconds now) {
    const auto dir = static_cast<std::int32_t>(entries.below(2));
    const auto first = static_cast<std::int32_t>(entries.below(kSegments - 1));
    enter_at(carid, xway, dir, first, returning, now);
  }

  void enter_at(std::int32_t carid, std::int32_t xway, std::int32_t dir, std::int32_t first,
                bool returning, Seconds now) {
    Car car;
    car.id = carid;
    car.returning = returning;
    car.xway = xway;
    car.dir = dir;
    const auto length =
        static_cast<std::int32_t>(entries.between(1, options.longest_trip_segments));
    const std::int32_t last = std::min(kSegments - 1, first + length);
    car.along = first * kSegmentFeet + kEntranceRampOffset;
    car.exit_along = last * kSegmentFeet + static_cast<std::int32_t>(entries.between(
                                               kNearestExitRampOffset, kFarthestExitRampOffset));
    car.preferred_speed =
        static_cast<std::int32_t>(entries.between(kSlowestPreferredSpeed, kFastestPreferredSpeed));
    car.speed =
        std::max(kSlowestMovingSpeed, driving_speed(car, now) * 2 / 3);  // still on the ramp
    std::uint32_t slot;
    if (free_slots.empty()) {
      slot = static_cast<std::uint32_t>(cars.size());
      cars.push_back(car);
    } else {
      slot = free_slots.back();
      free_slots.pop_back();
      cars[slot] = car;
    }
    ++occupancy[segment_of(car)];
    due[now % kReportInterval].push_back(slot);
    ++stats.trips;
    report(car, now);
  }

  // The accident whose position `car` reaches in this interval, if it still needs a car and the
  // car would drive on past it.
  Accident* accident_reached(const Car& car, std::int32_t next_along, Seconds now) {
    for (std::size_t index : accidents_on_road[road_of(car.xway, car.dir)]) {
      Accident& a = accidents[index];
      if (!a.catching(now)) continue;
      if (car.along < a.along && a.along <= next_along && a.along < car.exit_along) return &a;
    }
    return nullptr;
  }

  void stop_in_accident(std::uint32_t slot, Accident& a, Seconds now) {
    Car& car = cars[slot];
    car.along = a.along;
    car.lane = a.lane;
    car.speed = 0;
    car.accident = static_cast<std::int32_t>(&a - accidents.data());
    car.reported_in_exit_segment = car.along / kSegmentFeet == car.exit_along / kSegmentFeet;
    car.stopped_until = std::numeric_limits<Seconds>::max();
    a.stopped_cars.push_back(slot);
    if (a.stopped_cars.size() == 1) {
      a.first_stop = now;
      return;
    }
    a.clears = now + a.duration;
    for (std::uint32_t stopped : a.stopped_cars)
      cars[stopped].stopped_until = a.clears;
    ++stats.accidents_planted;
  }

  // One report of the car in `slot`; false when it has left the expressway.
  bool drive(std::uint32_t slot, Seconds now) {
    Car& car = cars[slot];
    if (car.stopped_until >= 0) {
      Accident& a = accidents[static_cast<std::size_t>(car.accident)];
      if (a.stopped_cars.size() == 1 && now - a.first_stop > kLongestWaitForSecondCar) {
        a.abandoned = true;
        car.stopped_until = now;
      }
      if (now < car.stopped_until) {
        report(car, now);
        return true;
      }
      car.stopped_until = -1;
      car.accident = -1;
    }
    const std::int32_t speed = driving_speed(car, now);
    std::int32_t next_along = car.along + speed * kFeetPerMphAndInterval;
    --occupancy[segment_of(car)];
    if (Accident* a = accident_reached(car, next_along, now)) {
      stop_in_accident(slot, *a, now);
      ++occupancy[segment_of(car)];
      report(car, now);
      return true;
    }
    if (next_along >= car.exit_along) {
      // The exit ramp is off the travel lanes: a full segment there does not hold the car back.
      if (car.reported_in_exit_segment) {
        ++stats.exits_within_segment;
      } else {
        ++stats.exits_into_next_segment;
      }
      car.along = car.exit_along;
      car.lane = kExitLane;
      car.speed = std::max(kSlowestMovingSpeed, speed / 2);  // braking on the ramp
      report(car, now);
      leave(car, now);
      free_slots.push_back(slot);
      return false;
    }
    // Spillback: a car does not drive into a segment that is full; it creeps on towards its end.
    const std::int32_t segment_end = (car.along / kSegmentFeet + 1) * kSegmentFeet;
    std::int32_t reported_speed = speed;
    if (next_along >= segment_end && segment_end < kRoadFeet &&
        occupancy[segment_at(car, segment_end)] >= options.jam_cars_per_segment &&
        segment_end - car.along > 1) {
      next_along = car.along + std::min(kCreepFeet, (segment_end - car.along) / 2);
      reported_speed = std::max(1, (next_along - car.along) / kFeetPerMphAndInterval);
    }
    car.along = next_along;
    car.speed = reported_speed;
    if (car.lane == kEntranceLane) {
      car.lane = static_cast<std::int32_t>(driving.between(1, kTravelLanes));
    } else if (driving.chance_per_million(kLaneChangePerMillion)) {
      car.lane += car.lane == 1 ? 1 : car.lane == kTravelLanes ? -1 : driving.below(2) ? 1 : -1;
    }
    ++occupancy[segment_of(car)];
    car.reported_in_exit_segment = car.along / kSegmentFeet == car.exit_along / kSegmentFeet;
    report(car, now);
    return true;
  }

  // A car on its first trip comes back if it can within the run and the cars that came back so
  // far are fewer than reentry_per_million of the cars: with an even chance (so that not only
  // the earliest leavers do), or for sure while they are more than 1 % of the cars short (at the
  // start, when few cars have left yet).
  void leave(const Car& car, Seconds now) {
    const Seconds latest = std::min(now + kLatestReturn, duration - 1);
    if (car.returning || now + kSoonestReturn > latest) return;
    const std::int64_t wanted = static_cast<std::int64_t>(next_carid) * options.reentry_per_million;
    const std::int64_t short_by = wanted - returns_scheduled * 1'000'000;
    if (short_by <= 0) return;
    if (short_by <= static_cast<std::int64_t>(next_carid) * 10'000 &&
        !returns_random.chance_per_million(500'000))
      return;
    ++returns_scheduled;
    returns.push(
        {static_cast<Seconds>(returns_random.between(now + kSoonestReturn, latest)), car.id});
  }

  void run() {
    for (Seconds now = 0; now < duration; ++now) {
      std::vector<std::uint32_t>& reporting = due[now % kReportInterval];
      for (std::size_t i = 0; i < reporting.size();) {
        if (drive(reporting[i], now)) {
          ++i;
        } else {
          reporting[i] = reporting.back();
          reporting.pop_back();
        }
      }
      while (!returns.empty() && returns.top().time == now) {
        const std::int32_t carid = returns.top().carid;
        returns.pop();
        ++stats.reentries;
        // Possibly on another expressway.
        const auto xway = static_cast<std::int32_t>(
            returns_random.below(static_cast<std::uint64_t>(options.xways)));
        enter(carid, xway, true, now);
      }
      for (int x = 0; x < options.xways; ++x) {
        for (int n = draw(entries, entry_rate_millis(now)); n > 0; --n)
          enter(next_carid++, x, false, now);
      }
      // The busy ramps let waiting cars on while their segment has room.
      for (std::size_t road = 0; road < ramps.size(); ++road) {
        BusyRamp& ramp = ramps[road];
        ramp.waiting = std::min(kLongestRampQueue,
                                ramp.waiting + draw(ramp_random, ramp_rate_millis(ramp, now)));
        const std::size_t segment = road * kSegments + static_cast<std::size_t>(ramp.segment);
        for (; ramp.waiting > 0 && occupancy[segment] * 10 < options.jam_cars_per_segment * 9;
             --ramp.waiting) {
          enter_at(next_carid++, static_cast<std::int32_t>(road / 2),
                   static_cast<std::int32_t>(road % 2), ramp.segment, false, now);
        }
      }
    }
    stats.cars = next_carid;
  }
};

TrafficGenerator::TrafficGenerator(const TrafficOptions& options) : options_(options) {}

void TrafficGenerator::run(const Sink& sink) {
  Simulation simulation(options_, stats_, questions_, sink);
  simulation.run();
}

}  // namespace cwf::lr
