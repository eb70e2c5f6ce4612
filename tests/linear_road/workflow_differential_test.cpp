// The Linear Road workflow (workflows/linear_road.yaml) gives the reference implementation's
// answers, line for line (as sets, emit aside), on generated traffic, under every director: one
// thread per actor, and the scheduled director with each policy on one and two workers. So does
// the workflow partitioned by expressway (workflows/linear_road_partitioned.yaml) with 2 and 4
// replicas, on traffic whose returning cars may take another expressway (their balance is then
// summed over replicas) and with fewer or more expressways than replicas. And so does the
// benchmark built from windows, lookups and folds (workflows/linear_road_windows.yaml).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <string_view>

#include "linear_road/answer_writer.hpp"
#include "linear_road/historical_tolls.hpp"
#include "linear_road/reference.hpp"
#include "linear_road/traffic_generator.hpp"
#include "tests/sanitizer_build.hpp"
#include "workflow_test_util.hpp"

namespace cwf::lr {
namespace {

using testing::DirectorChoice;

struct Dataset {
  std::string input;
  std::string tolls;
  std::vector<std::string> expected;  // the reference's answers, sorted, without emit
  std::uint64_t lines = 0;
  // Balance queries of cars that drove on another expressway before (answered, when partitioned,
  // by adding up the parts of several replicas).
  std::uint64_t queries_after_another_xway = 0;
};

// Generated once per process and kept: simulation and reference take a fraction of a second.
const Dataset& dataset(int xways, int minutes) {
  static std::map<std::pair<int, int>, Dataset> datasets;
  auto key = std::make_pair(xways, minutes);
  if (auto found = datasets.find(key); found != datasets.end()) return found->second;
  Dataset d;
  std::string dir =
      testing::test_directory("diff_" + std::to_string(xways) + "x" + std::to_string(minutes));
  d.input = dir + "/input.dat";
  d.tolls = dir + "/historical-tolls.dat";
  TrafficOptions options;
  options.xways = xways;
  options.minutes = minutes;
  TrafficGenerator generator(options);
  std::vector<InputRecord> records;
  generator.run([&](const InputRecord& r) { records.push_back(r); });
  testing::write_input(d.input, records);
  d.lines = records.size();
  {
    std::map<std::int32_t, std::int32_t> first_xway;
    std::set<std::int32_t> switched;
    for (const InputRecord& r : records) {
      if (r.type == static_cast<std::int32_t>(InputType::position_report)) {
        auto [at, fresh] = first_xway.emplace(r.carid, r.xway);
        if (!fresh && at->second != r.xway) switched.insert(r.carid);
      } else if (r.type == static_cast<std::int32_t>(InputType::account_balance) &&
                 switched.count(r.carid)) {
        ++d.queries_after_another_xway;
      }
    }
  }
  {
    std::ofstream tolls(d.tolls);
    generate_historical_tolls(generator.stats().cars, xways, options.seed,
                              generator.expenditure_questions(), [&](const HistoricalToll& row) {
                                tolls << row.carid << ',' << row.day << ',' << row.xway << ','
                                      << row.toll << '\n';
                              });
  }
  HistoricalTollTable history;
  EXPECT_TRUE(history.load(d.tolls).error.empty());
  const std::string expected_path = dir + "/expected.out";
  {
    AnswerWriter writer;
    EXPECT_TRUE(writer.open(expected_path));
    Reference reference(writer, history);
    for (const InputRecord& r : records)
      reference.process(r);
    EXPECT_TRUE(writer.close());
  }
  d.expected = testing::answer_lines(expected_path);
  return datasets.emplace(key, std::move(d)).first->second;
}

struct Case {
  int xways;
  int minutes;
  DirectorChoice director;
  int replicas = 0;      // 0: workflows/linear_road.yaml; else the partitioned one with this many
  bool windows = false;  // workflows/linear_road_windows.yaml
};

class LrWorkflowDifferential : public ::testing::TestWithParam<Case> {};

TEST_P(LrWorkflowDifferential, AnswersEqualTheReference) {
  const Case& c = GetParam();
  const Dataset& d = dataset(c.xways, c.minutes);
  ASSERT_GT(d.expected.size(), 1000u);
  if (c.replicas > 0) {
    ASSERT_GT(d.queries_after_another_xway, 0u);
  }
  const std::string dir = testing::test_directory("diff_out_" + c.director.name());
  const std::string out = dir + "/out";
  const std::string workflow = c.windows         ? testing::kWindowsWorkflow
                               : c.replicas == 0 ? testing::kFusedWorkflow
                                                 : testing::partitioned_workflow(dir, c.replicas);
  testing::WorkflowRun run =
      testing::run_linear_road(d.input, d.tolls, out, c.director, {}, workflow);
  EXPECT_EQ(run.summary.incomplete(), 0u);
  std::vector<std::string> actual = testing::answer_lines(out);
  ASSERT_EQ(actual.size(), d.expected.size());
  std::vector<std::string> missing, extra;
  std::set_difference(d.expected.begin(), d.expected.end(), actual.begin(), actual.end(),
                      std::back_inserter(missing));
  std::set_difference(actual.begin(), actual.end(), d.expected.begin(), d.expected.end(),
                      std::back_inserter(extra));
  EXPECT_TRUE(missing.empty()) << missing.size() << " missing, first: " << missing.front();
  EXPECT_TRUE(extra.empty()) << extra.size() << " extra, first: " << extra.front();
  // Every kind of answer is there (the data has congestion, an accident and both queries).
  for (std::uint64_t count : run.answers)
    EXPECT_GT(count, 0u);
  // As fast as possible, emit is the input time.
  for (const std::string& line : testing::answer_lines(out, /*drop_emit=*/false)) {
    std::size_t time_field = line.rfind("0,", 0) == 0 ? 2 : 1;
    std::vector<std::string> fields;
    for (std::size_t start = 0, end; start <= line.size(); start = end + 1) {
      end = line.find(',', start);
      if (end == std::string::npos) end = line.size();
      fields.push_back(line.substr(start, end - start));
    }
    ASSERT_EQ(fields[time_field], fields[time_field + 1]) << line;
  }
}

// Under the sanitizers (testing::every_director has fewer directors there) no one-expressway run,
// the windowed workflow on the scheduled director only (51 s on the threaded one under
// AddressSanitizer, for the same actors' code), the replicas on the threaded director only.
std::vector<Case> cases() {
  std::vector<Case> all;
  for (const DirectorChoice& director : testing::every_director()) {
    if (!cwf::testing::kSanitizerBuild) all.push_back({1, 25, director});
    all.push_back({2, 8, director});
    if (!cwf::testing::kSanitizerBuild || director.type != "threaded")
      all.push_back({2, 8, director, 0, true});
    // Three expressways: 2 replicas hold two and one, 4 replicas leave one with none.
    for (int replicas : {2, 4})
      if (!cwf::testing::kSanitizerBuild || (replicas == 2 && director.type == "threaded"))
        all.push_back({3, 10, director, replicas});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Directors, LrWorkflowDifferential, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return "L" + std::to_string(info.param.xways) + "_" +
                                  std::to_string(info.param.minutes) + "min_" +
                                  info.param.director.name() +
                                  (info.param.windows ? "_windows"
                                   : info.param.replicas == 0
                                       ? ""
                                       : "_" + std::to_string(info.param.replicas) + "_replicas");
                         });

}  // namespace
}  // namespace cwf::lr
