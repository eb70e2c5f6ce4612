// Replicating a dataset for L expressways (linear_road/replication.hpp): copies are remapped,
// the replicated stream stays sorted, the historical tolls answer every copy's queries, and the
// workflow's source and expenditure actors replicate exactly as the reference sees it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <tuple>

#include "linear_road/answer_writer.hpp"
#include "linear_road/historical_tolls.hpp"
#include "linear_road/reference.hpp"
#include "linear_road/replication.hpp"
#include "linear_road/traffic_generator.hpp"
#include "reference_test_util.hpp"
#include "workflow_test_util.hpp"

namespace cwf::lr {
namespace {

struct Dataset {
  std::vector<InputRecord> records;
  HistoricalTollTable tolls;
  std::vector<HistoricalToll> rows;
};

Dataset generate(int xways, int minutes) {
  Dataset d;
  TrafficOptions options;
  options.xways = xways;
  options.minutes = minutes;
  options.seed = 7;
  TrafficGenerator generator(options);
  generator.run([&](const InputRecord& r) { d.records.push_back(r); });
  generate_historical_tolls(generator.stats().cars, xways, options.seed,
                            generator.expenditure_questions(), [&](const HistoricalToll& row) {
                              d.tolls.set(row.carid, row.day, row.xway, row.toll);
                              d.rows.push_back(row);
                            });
  return d;
}

TEST(LrReplication, CopiesAreRemappedAndDisjoint) {
  ReplicaShape shape{.cars = 100, .xways = 2, .qids = 50};
  InputRecord query = testing::balance_query(30, 7, 12);
  query.xway = 1;
  InputRecord copy = replica(query, 3, shape);
  EXPECT_EQ(copy.carid, 307);
  EXPECT_EQ(copy.xway, 7);
  EXPECT_EQ(copy.qid, 162);
  EXPECT_EQ(copy.time, 30);
  EXPECT_EQ(replica(query, 0, shape), query);
  InputRecord report = testing::position_report(30, 7, 50, {});
  EXPECT_EQ(replica(report, 2, shape).qid, -1);  // unused fields stay -1
}

TEST(LrReplication, ShapeIsScannedFromTheInput) {
  Dataset d = generate(2, 4);
  const std::string dir = testing::test_directory("replication_shape");
  testing::write_input(dir + "/input.dat", d.records);
  ReplicaShape shape = scan_replica_shape(dir + "/input.dat");
  std::int32_t cars = 0, xways = 0, qids = 0;
  for (const InputRecord& r : d.records) {
    cars = std::max(cars, r.carid + 1);
    xways = std::max(xways, r.xway + 1);
    qids = std::max(qids, r.qid + 1);
  }
  EXPECT_EQ(shape.cars, cars);
  EXPECT_EQ(shape.xways, 2);
  EXPECT_EQ(shape.qids, qids);
  EXPECT_EQ(shape.records, d.records.size());
  ReplicaShape first_minute = scan_replica_shape(dir + "/input.dat", 60);
  EXPECT_LT(first_minute.records, shape.records);
  EXPECT_THROW(scan_replica_shape(dir + "/missing.dat"), std::runtime_error);
}

// The reference on a replicated generated dataset answers every type-3 query from a historical
// row, and every copy exactly as the original (remapped).
TEST(LrReplication, ReferenceAnswersEveryCopyConsistently) {
  Dataset d = generate(1, 12);
  ReplicaShape shape;
  for (const InputRecord& r : d.records) {
    shape.cars = std::max(shape.cars, r.carid + 1);
    shape.xways = std::max(shape.xways, r.xway + 1);
    shape.qids = std::max(shape.qids, r.qid + 1);
  }
  constexpr std::int32_t kCopies = 4;
  testing::CollectedAnswers original, replicated;
  {
    Reference reference(original, d.tolls);
    for (const InputRecord& r : d.records)
      reference.process(r);
  }
  d.tolls.replicate(shape.cars, shape.xways, kCopies);
  Reference reference(replicated, d.tolls);
  Seconds previous = 0;
  for (const InputRecord& r : d.records) {
    ASSERT_GE(r.time, previous);  // each tuple's copies follow it: the stream stays sorted
    previous = r.time;
    for (std::int32_t copy = 0; copy < kCopies; ++copy)
      reference.process(replica(r, copy, shape));
  }
  ASSERT_GT(original.expenditures.size(), 0u);
  ASSERT_GT(original.alerts.size(), 0u);
  EXPECT_EQ(reference.counts().unknown_expenditures, 0u);
  EXPECT_EQ(reference.counts().expenditure_queries, kCopies * original.expenditures.size());
  EXPECT_EQ(replicated.tolls.size(), kCopies * original.tolls.size());
  EXPECT_EQ(replicated.alerts.size(), kCopies * original.alerts.size());
  EXPECT_EQ(replicated.balances.size(), kCopies * original.balances.size());
  ASSERT_EQ(replicated.expenditures.size(), kCopies * original.expenditures.size());
  // Copy i of every answer is the original's with its qid (or carid, xway) remapped.
  std::multiset<std::tuple<int, std::int64_t>> expected, actual;
  for (const ExpenditureAnswer& a : original.expenditures)
    for (std::int32_t copy = 0; copy < kCopies; ++copy)
      expected.insert({a.qid + copy * shape.qids, a.toll});
  for (const ExpenditureAnswer& a : replicated.expenditures)
    actual.insert({a.qid, a.toll});
  EXPECT_EQ(actual, expected);
  std::multiset<std::tuple<int, int, int, int>> expected_tolls, actual_tolls;
  for (const TollNotification& a : original.tolls)
    for (std::int32_t copy = 0; copy < kCopies; ++copy)
      expected_tolls.insert({a.carid + copy * shape.cars, a.time, a.lav, a.toll});
  for (const TollNotification& a : replicated.tolls)
    actual_tolls.insert({a.carid, a.time, a.lav, a.toll});
  EXPECT_EQ(actual_tolls, expected_tolls);
  // Beyond the copies there is nothing.
  EXPECT_FALSE(d.tolls.lookup(kCopies * shape.cars + 1, 1, 0).has_value());
}

// lr_source with `xways` and lr_daily_expenditure with the same replication give the answers the
// reference gives on the replicated stream (shape scanned by the source itself).
TEST(LrReplication, WorkflowReplicatesLikeTheReference) {
  Dataset d = generate(1, 8);
  const std::string dir = testing::test_directory("replication_workflow");
  testing::write_input(dir + "/input.dat", d.records);
  {
    std::ofstream tolls(dir + "/tolls.dat");
    for (const HistoricalToll& row : d.rows)
      tolls << row.carid << ',' << row.day << ',' << row.xway << ',' << row.toll << '\n';
  }
  ReplicaShape shape = scan_replica_shape(dir + "/input.dat");
  constexpr std::int32_t kCopies = 3;
  testing::WorkflowRun run = testing::run_linear_road(
      dir + "/input.dat", dir + "/tolls.dat", dir + "/answers.out", testing::DirectorChoice{},
      {{"input", "xways", std::to_string(kCopies)},
       {"expenditures", "xways", std::to_string(kCopies)},
       {"expenditures", "replica_cars", std::to_string(shape.cars)},
       {"expenditures", "replica_xways", std::to_string(shape.xways)}});
  EXPECT_EQ(run.source_errors, 0u);
  AnswerWriter writer;
  ASSERT_TRUE(writer.open(dir + "/expected.out"));
  d.tolls.replicate(shape.cars, shape.xways, kCopies);
  {
    Reference reference(writer, d.tolls);
    for (const InputRecord& r : d.records)
      for (std::int32_t copy = 0; copy < kCopies; ++copy)
        reference.process(replica(r, copy, shape));
    EXPECT_EQ(reference.counts().unknown_expenditures, 0u);
  }
  ASSERT_TRUE(writer.close());
  std::vector<std::string> expected = testing::answer_lines(dir + "/expected.out");
  std::vector<std::string> actual = testing::answer_lines(dir + "/answers.out");
  EXPECT_GT(expected.size(), 1000u);
  EXPECT_EQ(actual, expected);
}

}  // namespace
}  // namespace cwf::lr
