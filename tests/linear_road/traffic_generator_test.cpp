// The traffic simulation behind `cwf lr generate`: deterministic per seed, well-formed in the
// way FORMAT.md describes the shared dataset, and exercising every Linear Road rule on a short
// run (congestion and non-zero tolls, accidents, re-entries, exits charged and not charged, both
// query types).
#include "linear_road/traffic_generator.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "linear_road/answer_sink.hpp"
#include "linear_road/csv_file_writer.hpp"
#include "linear_road/historical_toll_table.hpp"
#include "linear_road/historical_tolls.hpp"
#include "linear_road/reference.hpp"

namespace cwf::lr {
namespace {

struct Dataset {
  TrafficOptions options;
  TrafficStats stats;
  std::vector<InputRecord> input;
  std::vector<HistoricalToll> tolls;
};

Dataset generate(int xways, int minutes, std::uint64_t seed) {
  Dataset data;
  data.options.xways = xways;
  data.options.minutes = minutes;
  data.options.seed = seed;
  TrafficGenerator generator(data.options);
  generator.run([&](const InputRecord& r) { data.input.push_back(r); });
  data.stats = generator.stats();
  generate_historical_tolls(data.stats.cars, xways, seed, generator.expenditure_questions(),
                            [&](const HistoricalToll& row) { data.tolls.push_back(row); });
  return data;
}

// One short run shared by the structure and rule tests: one expressway, 20 minutes.
const Dataset& short_run() {
  static const Dataset data = generate(1, 20, 42);
  return data;
}

// Two expressways, so that daily-expenditure queries ask about either one.
const Dataset& two_xways() {
  static const Dataset data = generate(2, 10, 5);
  return data;
}

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// input.dat and historical-tolls.dat as the command writes them, concatenated.
std::string dataset_bytes(int xways, int minutes, std::uint64_t seed) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("cwf_lr_generate_" +
       std::to_string(::testing::UnitTest::GetInstance()->current_test_info()->line()) + "_" +
       std::to_string(seed));
  std::filesystem::create_directories(dir);
  TrafficOptions options;
  options.xways = xways;
  options.minutes = minutes;
  options.seed = seed;
  TrafficGenerator generator(options);
  {
    CsvFileWriter input((dir / "input.dat").string());
    generator.run([&](const InputRecord& r) { input.line(r); });
    EXPECT_TRUE(input.close());
    CsvFileWriter tolls((dir / "historical-tolls.dat").string());
    generate_historical_tolls(generator.stats().cars, xways, seed,
                              generator.expenditure_questions(), [&](const HistoricalToll& row) {
                                tolls.line({row.carid, row.day, row.xway, row.toll});
                              });
    EXPECT_TRUE(tolls.close());
  }
  std::string bytes =
      file_bytes(dir / "input.dat") + "--\n" + file_bytes(dir / "historical-tolls.dat");
  std::filesystem::remove_all(dir);
  return bytes;
}

TEST(TrafficGenerator, SameSeedGivesIdenticalBytesAndAnotherSeedDifferentOnes) {
  const std::string first = dataset_bytes(2, 8, 11);
  const std::string again = dataset_bytes(2, 8, 11);
  const std::string other = dataset_bytes(2, 8, 12);
  ASSERT_GT(first.size(), 100'000u);
  EXPECT_TRUE(first == again);
  EXPECT_FALSE(first == other);
}

TEST(TrafficGenerator, WritesLinesInTheFormatOfTheSharedData) {
  const std::string bytes = dataset_bytes(1, 2, 3);
  const std::string first_line = bytes.substr(0, bytes.find('\n'));
  // type 0 at second 0, a car on its entrance ramp, the query fields unused.
  EXPECT_EQ(first_line.rfind("0,0,0,", 0), 0u) << first_line;
  EXPECT_EQ(first_line.substr(first_line.size() - 18), ",-1,-1,-1,-1,-1,-1") << first_line;
}

void expect_well_formed(const Dataset& data) {
  const Seconds end = data.options.minutes * 60;
  ASSERT_FALSE(data.input.empty());
  std::set<std::int32_t> qids;
  Seconds previous_time = 0;
  for (std::size_t i = 0; i < data.input.size(); ++i) {
    const InputRecord& r = data.input[i];
    SCOPED_TRACE("line " + std::to_string(i + 1));
    ASSERT_GE(r.time, previous_time);
    previous_time = r.time;
    ASSERT_LT(r.time, end);
    ASSERT_TRUE(r.type == 0 || r.type == 2 || r.type == 3);
    ASSERT_GE(r.carid, 0);
    ASSERT_LT(r.carid, data.stats.cars);
    ASSERT_GE(r.speed, 0);
    ASSERT_LE(r.speed, 100);
    ASSERT_GE(r.xway, 0);
    ASSERT_LT(r.xway, data.options.xways);
    ASSERT_GE(r.lane, 0);
    ASSERT_LE(r.lane, 4);
    ASSERT_TRUE(r.dir == 0 || r.dir == 1);
    ASSERT_GE(r.pos, 0);
    ASSERT_LT(r.pos, 100 * kSegmentFeet);
    ASSERT_EQ(r.seg, r.pos / kSegmentFeet);
    ASSERT_EQ(r.sinit, -1);
    ASSERT_EQ(r.send, -1);
    ASSERT_EQ(r.dow, -1);
    ASSERT_EQ(r.tod, -1);
    if (r.type == 0) {
      ASSERT_EQ(r.qid, -1);
      ASSERT_EQ(r.day, -1);
      continue;
    }
    ASSERT_TRUE(qids.insert(r.qid).second) << "qid " << r.qid << " twice";
    if (r.type == 3) {
      ASSERT_GE(r.day, 1);
      ASSERT_LE(r.day, kHistoryDays);
    } else {
      ASSERT_EQ(r.day, -1);
    }
    // Straight after the report of the same car and second, repeating its fields.
    ASSERT_GT(i, 0u);
    const InputRecord& report = data.input[i - 1];
    ASSERT_EQ(report.type, 0);
    EXPECT_EQ(std::tie(report.time, report.carid, report.speed, report.lane, report.dir, report.seg,
                       report.pos),
              std::tie(r.time, r.carid, r.speed, r.lane, r.dir, r.seg, r.pos));
    if (r.type == 2) {
      EXPECT_EQ(report.xway, r.xway);
    }
  }
}

TEST(TrafficGenerator, RecordsAreSortedInRangeAndQueriesFollowTheirReport) {
  expect_well_formed(short_run());
  expect_well_formed(two_xways());
}

// Every car enters in lane 0, reports every 30 s and ends a trip with a lane-4 report (or is still
// on the road when the run ends); a later trip starts in lane 0 more than 60 s after it left.
void expect_cars_report_every_30_seconds(const Dataset& data) {
  const Seconds end = data.options.minutes * 60;
  std::map<std::int32_t, InputRecord> last;
  for (const InputRecord& r : data.input) {
    if (r.type != 0) continue;
    auto it = last.find(r.carid);
    if (it == last.end()) {
      EXPECT_EQ(r.lane, kEntranceLane) << "car " << r.carid << " first seen at " << r.time;
    } else if (it->second.lane == kExitLane) {
      EXPECT_EQ(r.lane, kEntranceLane) << "car " << r.carid << " came back at " << r.time;
      EXPECT_GT(r.time - it->second.time, 60) << "car " << r.carid;
    } else {
      EXPECT_EQ(r.time - it->second.time, 30) << "car " << r.carid << " at " << r.time;
      EXPECT_EQ(r.xway, it->second.xway);
      EXPECT_EQ(r.dir, it->second.dir);
      EXPECT_NE(r.lane, kEntranceLane) << "car " << r.carid << " at " << r.time;
      // Moving along its direction, or standing still.
      if (r.dir == 0) {
        EXPECT_GE(r.pos, it->second.pos);
      } else {
        EXPECT_LE(r.pos, it->second.pos);
      }
    }
    last[r.carid] = r;
  }
  EXPECT_EQ(static_cast<std::int64_t>(last.size()), data.stats.cars);
  for (const auto& [carid, r] : last) {
    if (r.lane != kExitLane) {
      EXPECT_GE(r.time, end - 30) << "car " << carid << " vanished";
    }
  }
}

TEST(TrafficGenerator, EveryCarReportsEvery30SecondsUntilItsExit) {
  expect_cars_report_every_30_seconds(short_run());
  expect_cars_report_every_30_seconds(two_xways());
}

void expect_historical_tolls_answer_every_query(const Dataset& data) {
  ASSERT_EQ(static_cast<std::int64_t>(data.tolls.size()), data.stats.cars * kHistoryDays);
  std::size_t i = 0;
  for (std::int32_t car = 0; car < data.stats.cars; ++car) {
    for (std::int32_t day = 1; day <= kHistoryDays; ++day, ++i) {
      const HistoricalToll& row = data.tolls[i];
      ASSERT_EQ(row.carid, car);
      ASSERT_EQ(row.day, day);
      ASSERT_GE(row.toll, 10);
      ASSERT_LE(row.toll, 99);
      ASSERT_GE(row.xway, 0);
      ASSERT_LT(row.xway, data.options.xways);
    }
  }
  for (const InputRecord& r : data.input) {
    if (r.type != 3) continue;
    const HistoricalToll& row = data.tolls[static_cast<std::size_t>(r.carid) * kHistoryDays +
                                           static_cast<std::size_t>(r.day - 1)];
    EXPECT_EQ(row.xway, r.xway) << "qid " << r.qid;
  }
}

TEST(TrafficGenerator, HistoricalTollsCoverEveryCarAndDayAndMatchTheQueries) {
  expect_historical_tolls_answer_every_query(short_run());
  expect_historical_tolls_answer_every_query(two_xways());
  // With two expressways the queries ask about both.
  std::set<std::int32_t> asked;
  for (const InputRecord& r : two_xways().input)
    if (r.type == 3) asked.insert(r.xway);
  EXPECT_EQ(asked.size(), 2u);
}

TEST(TrafficGenerator, SomeSegmentMinuteIsCongestedEnoughForATollOnAShortRun) {
  // (xway, dir, seg, minute) -> distinct cars and the speeds they reported.
  std::map<std::tuple<int, int, int, int>, std::pair<std::set<int>, std::vector<int>>> cells;
  for (const InputRecord& r : short_run().input) {
    if (r.type != 0) continue;
    auto& cell = cells[{r.xway, r.dir, r.seg, minute_of(r.time)}];
    cell.first.insert(r.carid);
    cell.second.push_back(r.speed);
  }
  int congested = 0;
  for (const auto& [key, cell] : cells) {
    long sum = 0;
    for (int speed : cell.second)
      sum += speed;
    const long mean = sum / static_cast<long>(cell.second.size());
    if (cell.first.size() > 50 && mean < 40) ++congested;
  }
  EXPECT_GE(congested, 1);
}

TEST(TrafficGenerator, PlantsAnAccidentWhereTwoCarsStandStillThenMoveOn) {
  // Runs of identical (xway, lane, pos, dir) reports per car.
  struct Run {
    std::tuple<int, int, int, int> where;
    int reports = 0;
  };
  std::map<std::int32_t, Run> runs;
  // Where a car stood for at least 4 reports -> those cars; and which of them moved on.
  std::map<std::tuple<int, int, int, int>, std::set<std::int32_t>> stopped;
  std::set<std::int32_t> moved_on;
  for (const InputRecord& r : short_run().input) {
    if (r.type != 0) continue;
    const auto where = std::make_tuple(r.xway, r.lane, r.pos, r.dir);
    Run& run = runs[r.carid];
    if (run.reports > 0 && run.where == where) {
      if (++run.reports == 4) stopped[where].insert(r.carid);
      continue;
    }
    if (run.reports >= 4) moved_on.insert(r.carid);
    run = Run{where, 1};
  }
  int accidents = 0;
  for (const auto& [where, cars] : stopped) {
    if (cars.size() < 2) continue;
    ++accidents;
    for (std::int32_t car : cars)
      EXPECT_TRUE(moved_on.count(car)) << "car " << car;
  }
  EXPECT_GE(accidents, 1);
  EXPECT_EQ(accidents, short_run().stats.accidents_planted);
}

TEST(TrafficGenerator, SomeCarsComeBackAndBothQueryTypesAppear) {
  const Dataset& data = short_run();
  std::map<std::int32_t, InputRecord> last;
  int reentries = 0;
  std::map<int, int> per_type;
  for (const InputRecord& r : data.input) {
    ++per_type[r.type];
    if (r.type != 0) continue;
    auto it = last.find(r.carid);
    if (it != last.end() && r.lane == kEntranceLane && r.time - it->second.time > 60) ++reentries;
    last[r.carid] = r;
  }
  EXPECT_GE(reentries, 1);
  EXPECT_EQ(reentries, data.stats.reentries);
  EXPECT_GT(per_type[2], 0);
  EXPECT_GT(per_type[3], 0);
  // About one report in a hundred carries a query.
  const double share = static_cast<double>(per_type[2] + per_type[3]) / per_type[0];
  EXPECT_GT(share, 0.007);
  EXPECT_LT(share, 0.013);
}

// The ten-minute run of `make run`: one expressway, seed 1, answered by the reference.
struct AnsweredRun {
  Dataset data;
  Reference::Counts counts;
  std::size_t accidents = 0;
  std::map<std::pair<std::int32_t, Seconds>, std::int32_t> tolls;  // (carid, time) -> toll
};

class Collector : public AnswerSink {
 public:
  explicit Collector(AnsweredRun& run) : run_(run) {}
  void toll(const TollNotification& answer) override {
    run_.tolls[{answer.carid, answer.time}] = answer.toll;
  }
  void alert(const AccidentAlert&) override {}
  void balance(const BalanceAnswer&) override {}
  void expenditure(const ExpenditureAnswer&) override {}

 private:
  AnsweredRun& run_;
};

const AnsweredRun& ten_minutes() {
  static const AnsweredRun run = [] {
    AnsweredRun r;
    r.data = generate(1, 10, 1);
    HistoricalTollTable history;
    for (const HistoricalToll& row : r.data.tolls)
      history.set(row.carid, row.day, row.xway, row.toll);
    Collector collector(r);
    Reference reference(collector, history);
    for (const InputRecord& record : r.data.input)
      reference.process(record);
    r.counts = reference.counts();
    r.accidents = reference.accidents().size();
    return r;
  }();
  return run;
}

TEST(TrafficGenerator, ATenMinuteRunChargesTollsLikeRealData) {
  const AnsweredRun& run = ten_minutes();
  ASSERT_GT(run.counts.tolls, 10'000u);
  // The shared dataset has 3.4 % non-zero tolls; the busy ramps' queues give 1-3 % from the
  // first minutes on.
  EXPECT_GT(run.counts.nonzero_tolls * 1000, run.counts.tolls * 5)
      << run.counts.nonzero_tolls << " of " << run.counts.tolls;
  EXPECT_LT(run.counts.nonzero_tolls * 100, run.counts.tolls * 6)
      << run.counts.nonzero_tolls << " of " << run.counts.tolls;
  EXPECT_GE(run.accidents, 1u);
  EXPECT_GE(run.counts.alerts, 1u);
}

TEST(TrafficGenerator, QueuesSpillBackOverSeveralSegments) {
  // (dir, seg, minute) -> distinct cars with a mean reported speed below 40 mph.
  std::map<std::tuple<int, int, int>, std::pair<std::set<int>, std::vector<int>>> cells;
  for (const InputRecord& r : ten_minutes().data.input) {
    if (r.type != 0) continue;
    auto& cell = cells[{r.dir, r.seg, minute_of(r.time)}];
    cell.first.insert(r.carid);
    cell.second.push_back(r.speed);
  }
  std::set<std::tuple<int, int, int>> congested;
  for (const auto& [key, cell] : cells) {
    long sum = 0;
    for (int speed : cell.second)
      sum += speed;
    if (cell.first.size() > 50 && sum < 40L * static_cast<long>(cell.second.size()))
      congested.insert(key);
  }
  // Some minute has a queue over two neighbouring segments or more.
  int neighbours = 0;
  for (const auto& [dir, seg, minute] : congested)
    if (congested.count({dir, seg + 1, minute})) ++neighbours;
  EXPECT_GE(neighbours, 1);
  EXPECT_GE(congested.size(), 5u);
}

TEST(TrafficGenerator, ExitsAreChargedWhenTheyEnterANewSegmentAndNotOtherwise) {
  const AnsweredRun& run = ten_minutes();
  std::map<std::int32_t, InputRecord> last;
  int into_next = 0, within = 0, charged = 0;
  for (const InputRecord& r : run.data.input) {
    if (r.type != 0) continue;
    auto it = last.find(r.carid);
    if (r.lane == kExitLane && it != last.end()) {
      if (it->second.seg != r.seg) {
        ++into_next;
        // The toll of the segment before is charged by this report.
        if (run.tolls.count({it->second.carid, it->second.time})) ++charged;
      } else {
        ++within;
      }
    }
    last[r.carid] = r;
  }
  EXPECT_EQ(into_next, run.data.stats.exits_into_next_segment);
  EXPECT_EQ(within, run.data.stats.exits_within_segment);
  // Exit ramps lie anywhere in a segment: both cases are common.
  EXPECT_GT(into_next, 100);
  EXPECT_GT(within, 100);
  // Some of them leave right after the report that was notified of that segment's toll.
  EXPECT_GE(charged, 1);
}

TEST(TrafficGenerator, AboutATenthOfTheCarsComeBackEvenInAShortRun) {
  const AnsweredRun& run = ten_minutes();
  EXPECT_EQ(static_cast<std::int64_t>(run.counts.new_trips), run.data.stats.reentries);
  EXPECT_GE(run.data.stats.reentries * 20, run.data.stats.cars);  // >= 5 %
  EXPECT_LE(run.data.stats.reentries * 8, run.data.stats.cars);   // <= 12.5 %
}

}  // namespace
}  // namespace cwf::lr
