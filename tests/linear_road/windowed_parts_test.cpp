// The parts of Linear Road built from windows (workflows/linear_road_windows/) give exactly the
// reference's results on generated traffic under every director:
//  - the segment statistics (the thesis's Avgsv and Avgs/cars, Figures 28 and 29): the distinct
//    cars and the mean of the cars' mean speeds of every segment and minute, as the reference's
//    own SegmentSpeedHistory has them;
//  - the stopped cars (Figure 25, four reports at one place): every report at which the
//    reference's move_car counts its car stopped (a run of 4 or more);
//  - the accidents (Figure 26, two stopped cars at one place, and a `fold` as the table of the
//    accidents in force): the reference AccidentTracker's, with their detection, last report
//    and cars.
// The windows' groups of cars end once the cars have left (`idle`), so the runs also show that
// ending groups lose nothing.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "linear_road/accident_tracker.hpp"
#include "linear_road/car_movement.hpp"
#include "linear_road/input_parser.hpp"
#include "linear_road/segment_speed_history.hpp"
#include "linear_road/traffic_generator.hpp"
#include "runtime/values/value_json.hpp"
#include "tests/sanitizer_build.hpp"
#include "workflow_test_util.hpp"

namespace cwf::lr {
namespace {

using testing::DirectorChoice;
using Cell = std::tuple<std::int32_t, std::int32_t, std::int32_t, std::int32_t>;  // x, d, s, m

struct Statistics {
  std::int64_t cars = 0;
  std::optional<double> speed;
  bool operator==(const Statistics&) const = default;
};

std::string show(const Cell& cell, const Statistics& s) {
  return "xway " + std::to_string(std::get<0>(cell)) + " dir " + std::to_string(std::get<1>(cell)) +
         " seg " + std::to_string(std::get<2>(cell)) + " minute " +
         std::to_string(std::get<3>(cell)) + ": " + std::to_string(s.cars) + " cars, speed " +
         (s.speed ? std::to_string(*s.speed) : "none");
}

struct Dataset {
  std::string input;
  std::map<Cell, Statistics> expected;
  std::set<std::pair<std::int32_t, std::int32_t>> stopped;  // (carid, time)
  std::vector<std::string> accidents;                       // show_accident, sorted
};

std::string show_accident(std::int64_t xway, std::int64_t dir, std::int64_t seg, std::int64_t pos,
                          std::int64_t detected, std::int64_t last_present, std::int64_t car1,
                          std::int64_t car2) {
  return "xway " + std::to_string(xway) + " dir " + std::to_string(dir) + " seg " +
         std::to_string(seg) + " pos " + std::to_string(pos) + " detected " +
         std::to_string(detected) + " last present " + std::to_string(last_present) + " cars " +
         std::to_string(car1) + ", " + std::to_string(car2);
}

// The reference's accidents: its stopped cars and accident tracker, fed as Reference feeds them.
std::vector<std::string> reference_accidents(const std::vector<InputRecord>& records) {
  std::map<std::int32_t, CarPosition> cars;
  AccidentTracker tracker;
  for (const InputRecord& r : records) {
    if (r.type != static_cast<std::int32_t>(InputType::position_report)) continue;
    CarPosition& car = cars[r.carid];
    CarMove move = move_car(car, r, AccidentTracker::kStoppedReports);
    if (move.left_stop)
      tracker.left(r.carid, move.stop.xway, move.stop.dir, move.stop.lane, move.stop.pos);
    tracker.report(r.carid, r.time, r.xway, r.dir, r.lane, r.seg, r.pos, car.run);
  }
  std::vector<std::string> out;
  for (const AccidentTracker::Accident& a : tracker.accidents())
    out.push_back(
        show_accident(a.xway, a.dir, a.seg, a.pos, a.detected, a.last_present, a.car1, a.car2));
  std::sort(out.begin(), out.end());
  return out;
}

// The reports at which the reference counts their car stopped.
std::set<std::pair<std::int32_t, std::int32_t>> reference_stopped(
    const std::vector<InputRecord>& records) {
  std::map<std::int32_t, CarPosition> cars;
  std::set<std::pair<std::int32_t, std::int32_t>> stopped;
  for (const InputRecord& r : records) {
    if (r.type != static_cast<std::int32_t>(InputType::position_report)) continue;
    CarPosition& car = cars[r.carid];
    move_car(car, r, AccidentTracker::kStoppedReports);
    if (car.run >= AccidentTracker::kStoppedReports) stopped.insert({r.carid, r.time});
  }
  return stopped;
}

// The reference's statistics: SegmentSpeedHistory fed every report in input order, read for each
// cell of a minute once the minute is over (it keeps the last few minutes only).
std::map<Cell, Statistics> reference_statistics(const std::vector<InputRecord>& records) {
  SegmentSpeedHistory history;
  std::map<std::int32_t, CarMinuteSpeeds> cars;
  std::map<Cell, Statistics> out;
  std::set<Cell> minute_cells;
  std::int32_t current = -1;
  auto read_out = [&] {
    for (const Cell& c : minute_cells) {
      auto [x, d, s, m] = c;
      out[c] = {history.cars(x, d, s, m), history.mean_speed(x, d, s, m)};
    }
    minute_cells.clear();
  };
  for (const InputRecord& r : records) {
    if (r.type != static_cast<std::int32_t>(InputType::position_report)) continue;
    const std::int32_t minute = r.time / 60 + 1;
    if (minute != current) read_out();
    current = minute;
    history.add(cars[r.carid], r.xway, r.dir, r.seg, minute, r.speed);
    minute_cells.insert({r.xway, r.dir, r.seg, minute});
  }
  read_out();
  return out;
}

const Dataset& dataset(int xways, int minutes) {
  static std::map<std::pair<int, int>, Dataset> datasets;
  auto key = std::make_pair(xways, minutes);
  if (auto found = datasets.find(key); found != datasets.end()) return found->second;
  Dataset d;
  const std::string dir = testing::test_directory("windowed_parts_" + std::to_string(xways) + "x" +
                                                  std::to_string(minutes));
  d.input = dir + "/input.dat";
  TrafficOptions options;
  options.xways = xways;
  options.minutes = minutes;
  std::vector<InputRecord> records;
  TrafficGenerator(options).run([&](const InputRecord& r) { records.push_back(r); });
  testing::write_input(d.input, records);
  d.expected = reference_statistics(records);
  d.stopped = reference_stopped(records);
  d.accidents = reference_accidents(records);
  return datasets.emplace(key, std::move(d)).first->second;
}

std::map<Cell, Statistics> read_rows(const std::string& path) {
  std::map<Cell, Statistics> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    Value row = parse_json(line);
    auto i32 = [&row](const char* f) { return static_cast<std::int32_t>(row.field(f)->as_int()); };
    Cell cell{i32("xway"), i32("dir"), i32("seg"), i32("minute")};
    Statistics s;
    s.cars = row.field("cars")->as_int();
    if (!row.field("speed")->is_null()) s.speed = row.field("speed")->as_double();
    EXPECT_TRUE(rows.emplace(cell, s).second) << "twice: " << show(cell, s);
  }
  return rows;
}

struct Case {
  int xways;
  int minutes;
  DirectorChoice director;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << "L" << c.xways << " " << c.minutes << " min " << c.director.name();
}

class LrWindowedParts : public ::testing::TestWithParam<Case> {};

TEST_P(LrWindowedParts, EqualTheReferences) {
  const Case& c = GetParam();
  const Dataset& d = dataset(c.xways, c.minutes);
  ASSERT_GT(d.expected.size(), 1000u);
  ASSERT_GT(d.stopped.size(), 10u);  // the traffic has stopped cars
  const std::string dir = testing::test_directory("windowed_parts_out_" + c.director.name());
  ASSERT_FALSE(d.accidents.empty());
  const std::string out = dir + "/stats.jsonl", stopped_out = dir + "/stopped.jsonl",
                    accidents_out = dir + "/accidents.jsonl";
  auto workflow = load_workflow_file(
      CWF_SOURCE_DIR "/workflows/linear_road_windows/statistics.yaml",
      LoadContext{testing::workflow_actor_registry(), testing::workflow_scheduler_registry()},
      {{"input", "path", d.input},
       {"out", "path", out},
       {"stopped_out", "path", stopped_out},
       {"accidents_out", "path", accidents_out}});
  workflow->director().type = c.director.type;
  workflow->director().scheduler = c.director.scheduler;
  workflow->director().workers = c.director.workers;
  auto director = make_director(workflow->director(), testing::workflow_scheduler_registry());
  RealClock clock;
  RunSummary summary = run_workflow(*workflow, *director, clock);
  EXPECT_EQ(summary.incomplete(), 0u);
  const std::map<Cell, Statistics> rows = read_rows(out);
  EXPECT_EQ(rows.size(), d.expected.size());
  std::size_t wrong = 0;
  for (const auto& [cell, expected] : d.expected) {
    auto got = rows.find(cell);
    if (got == rows.end()) {
      ADD_FAILURE() << "missing " << show(cell, expected);
    } else if (!(got->second == expected) && ++wrong <= 5) {
      ADD_FAILURE() << "got " << show(cell, got->second) << ", expected " << show(cell, expected);
    }
  }
  EXPECT_EQ(wrong, 0u);

  std::set<std::pair<std::int32_t, std::int32_t>> stopped;
  std::ifstream in(stopped_out);
  for (std::string line; std::getline(in, line);) {
    Value report = parse_json(line);
    stopped.insert({static_cast<std::int32_t>(report.field("carid")->as_int()),
                    static_cast<std::int32_t>(report.field("time")->as_int())});
  }
  EXPECT_EQ(stopped, d.stopped);

  // An accident's last record (keyed by place and detection) is the accident.
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>, std::string> last;
  std::ifstream records(accidents_out);
  for (std::string line; std::getline(records, line);) {
    Value a = parse_json(line);
    auto i64 = [&a](const char* f) { return a.field(f)->as_int(); };
    last[{i64("xway"), i64("dir"), i64("pos"), i64("detected")}] =
        show_accident(i64("xway"), i64("dir"), i64("seg"), i64("pos"), i64("detected"),
                      i64("last_present"), i64("car1"), i64("car2"));
  }
  std::vector<std::string> accidents;
  for (const auto& [key, accident] : last)
    accidents.push_back(accident);
  std::sort(accidents.begin(), accidents.end());
  EXPECT_EQ(accidents, d.accidents);
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const DirectorChoice& director : testing::every_director())
    all.push_back({2, cwf::testing::kSanitizerBuild ? 6 : 20, director});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Directors, LrWindowedParts, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return "L" + std::to_string(info.param.xways) + "_" +
                                  std::to_string(info.param.minutes) + "min_" +
                                  info.param.director.name();
                         });

}  // namespace
}  // namespace cwf::lr
