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
constexpr std::int32_t kExitRampOffset = kSegmentFeet * 3 / 4;
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
enum Purpose : std::uint64_t { kEntries = 1, kDriving, kQueries, kAccidents, kReturns };

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
        occupancy(static_cast<std::size_t>(o.xways) * 2 * kSegments, 0),
        accidents_on_road(static_cast<std::size_t>(o.xways) * 2) {
    plan_accidents();
  }

  static std::size_t road_of(std::int32_t xway, std::int32_t dir) {
    return static_cast<std::size_t>(xway) * 2 + static_cast<std::size_t>(dir);
  }
  std::size_t segment_of(const Car& car) const {
    return road_of(car.xway, car.dir) * kSegments +
           static_cast<std::size_t>(car.along / kSegmentFeet);
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

  int entries_now(Seconds t) {
    const std::int64_t millis = std::min(entry_rate_millis(t), kEntryTrials * 1000);
    int count = 0;
    for (std::int64_t i = 0; i < kEntryTrials; ++i)
      if (static_cast<std::int64_t>(entries.below(kEntryTrials * 1000)) < millis) ++count;
    return count;
  }

  // Speed falls with the cars in the segment: linearly (Greenshields) until the segment is half
  // full, where cars/hour through it peaks at preferred speed * jam / 4 (a segment is a mile);
  // beyond that cars slow just enough to keep that flow. So a queue forms only where more cars
  // arrive than a segment lets through, and dissolves when fewer do. Behind an accident the
  // speed drops by a third and a queue forms there.
  std::int32_t driving_speed(const Car& car, Seconds now) {
    const std::int64_t jam = options.jam_cars_per_segment;
    const std::int64_t cars = occupancy[segment_of(car)];
    auto speed =
        static_cast<std::int32_t>(2 * cars <= jam ? car.preferred_speed * (jam - cars) / jam
                                                  : car.preferred_speed * jam / (4 * cars));
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

  void enter(std::int32_t carid, std::int32_t xway, bool returning, Seconds now) {
    Car car;
    car.id = carid;
    car.returning = returning;
    car.xway = xway;
    car.dir = static_cast<std::int32_t>(entries.below(2));
    const auto first = static_cast<std::int32_t>(entries.below(kSegments - 1));
    const auto length =
        static_cast<std::int32_t>(entries.between(1, options.longest_trip_segments));
    const std::int32_t last = std::min(kSegments - 1, first + length);
    car.along = first * kSegmentFeet + kEntranceRampOffset;
    car.exit_along = last * kSegmentFeet + kExitRampOffset;
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
    const std::int32_t next_along = car.along + speed * kFeetPerMphAndInterval;
    --occupancy[segment_of(car)];
    if (Accident* a = accident_reached(car, next_along, now)) {
      stop_in_accident(slot, *a, now);
      ++occupancy[segment_of(car)];
      report(car, now);
      return true;
    }
    if (next_along >= car.exit_along) {
      car.along = car.exit_along;
      car.lane = kExitLane;
      car.speed = std::max(kSlowestMovingSpeed, speed / 2);  // braking on the ramp
      report(car, now);
      leave(car, now);
      free_slots.push_back(slot);
      return false;
    }
    car.along = next_along;
    car.speed = speed;
    if (car.lane == kEntranceLane) {
      car.lane = static_cast<std::int32_t>(driving.between(1, kTravelLanes));
    } else if (driving.chance_per_million(kLaneChangePerMillion)) {
      car.lane += car.lane == 1 ? 1 : car.lane == kTravelLanes ? -1 : driving.below(2) ? 1 : -1;
    }
    ++occupancy[segment_of(car)];
    report(car, now);
    return true;
  }

  void leave(const Car& car, Seconds now) {
    if (car.returning ||
        !returns_random.chance_per_million(static_cast<std::uint32_t>(options.reentry_per_million)))
      return;
    returns.push({now + static_cast<Seconds>(returns_random.between(kSoonestReturn, kLatestReturn)),
                  car.id});
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
        for (int n = entries_now(now); n > 0; --n)
          enter(next_carid++, x, false, now);
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
