// Every shipped workflow that has an expected output, run through the `cwf` binary under every
// director, policy and worker count (kEveryDirector) and on both clocks, must print exactly that
// output: line for line, or, where the example's own comment says that its lines interleave in
// any order, stream by stream. A workflow file added under workflows/ must be listed here, or
// listed with the test that covers it instead.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "process.hpp"

namespace cwf::testing {
namespace {

namespace fs = std::filesystem;

const std::string kWorkflows = std::string(CWF_SOURCE_DIR) + "/workflows/";

struct ShippedExample {
  std::string workflow;  // relative to workflows/
  std::string expected;  // relative to workflows/
  // Empty: the output is the expected file line for line. Otherwise the output's lines fall into
  // streams that interleave in any order (branches or brokers printing to one sink), each in a
  // fixed order: a line's stream is the first group this regular expression captures in it, or
  // "" when it does not match. The example's comment must say so ("interleave in any order").
  std::string streams = {};
  std::vector<std::string> extra = {};  // further `cwf run` options
  // The file names the clock it needs (`clock:`): run on that one only, not on both.
  bool own_clock = false;
};

const std::vector<ShippedExample> kShipped = {
    {"examples/sensor_alerts.yaml", "examples/expected/sensor_alerts.out"},
    {"examples/order_items.yaml", "examples/expected/order_items.out"},
    {"examples/squares.yaml", "examples/expected/squares.out"},
    {"examples/sensor_averages.yaml", "examples/expected/sensor_averages.out",
     R"re(^\{"group":"(\w+)")re"},
    {"examples/input_errors.yaml", "examples/expected/input_errors.out", R"(^(\{"bad_line"))"},
    {"examples/order_payments.yaml", "examples/expected/order_payments.out",
     R"re(^\{"(paid|unpaid|unknown_payment)")re"},
    {"examples/order_prices.yaml", "examples/expected/order_prices.out"},
    {"examples/patterns/cwp1_sequential_aggregate.yaml",
     "examples/expected/patterns/cwp1_sequential_aggregate.out"},
    {"examples/patterns/cwp2_stream_join.yaml", "examples/expected/patterns/cwp2_stream_join.out"},
    {"examples/patterns/cwp3_stream_synch.yaml", "examples/expected/patterns/cwp3_stream_synch.out",
     "^(order \\d+)"},
    {"examples/patterns/cwp4_case_cancellation.yaml",
     "examples/expected/patterns/cwp4_case_cancellation.out", "^(order \\d+|packed|cancelled)"},
    {"examples/patterns/cwp6_expiration.yaml", "examples/expected/patterns/cwp6_expiration.out",
     "^(expired)"},
    {"examples/patterns/figure9_two_within_5min.yaml",
     "examples/expected/patterns/figure9_two_within_5min.out"},
    {"examples/patterns/figure12_out_of_stock.yaml",
     "examples/expected/patterns/figure12_out_of_stock.out"},
    // The negative price is rejected on purpose (the examples say so).
    {"examples/pubsub/single_broker.yaml",
     "examples/pubsub/expected/single_broker.out",
     "",
     {"--max-errors", "1"}},
    {"examples/pubsub/one_subscriber.yaml",
     "examples/pubsub/expected/one_subscriber.out",
     "",
     {"--max-errors", "1"}},
    {"examples/pubsub/overlay.yaml", "examples/pubsub/expected/overlay.out",
     R"re("subscriber":"(carol)")re"},
    {"examples/hic/print_reminders.yaml",
     "examples/hic/expected/print_reminders.out",
     "",
     {},
     true},
    {"examples/guards/buy_ticket_book_car.yaml",
     "examples/guards/buy_ticket_book_car.expected.jsonl"},
    {"examples/guards/klein_order.yaml", "examples/guards/klein_order.expected.jsonl"},
    // The last event names an instance nothing created, rejected on purpose (the example says so).
    {"gsm/design_to_order_run.yaml",
     "gsm/expected/design_to_order_run.out",
     "",
     {"--max-errors", "1"}},
};

// The other files under workflows/, and where they are tested instead.
const std::map<std::string, std::string> kTestedElsewhere = {
    {"examples/hot_readings_per_minute.yaml",
     "writes a CSV file, not stdout: window_times_example_test.cpp"},
    {"examples/ticker.yaml", "endless: examples_test.cpp stops it with --for and with Ctrl-C"},
    {"examples/checkpoints/sensor_windows.yaml",
     "writes files, killed and resumed: crash_recovery_test.cpp under every director, "
     "checkpoint_options_test.cpp"},
    {"examples/checkpoints/sensor_stages.yaml",
     "writes files, resumed from its checkpoints: crash_recovery_test.cpp"},
    {"examples/checkpoints/stages/sensor_stage.yaml",
     "a sub-workflow, run inside examples/checkpoints/sensor_stages.yaml"},
    {"examples/overload/fanout.yaml",
     "6 million events: overload_test.cpp runs 400,000 of them under every director"},
    {"examples/stages/odd_squares.yaml", "a sub-workflow, run inside examples/squares.yaml"},
    {"examples/hic/hic.yaml",
     "writes an event history: hic_workflow_test.cpp queries it under every director and clock"},
    {"examples/hic/rules.yaml", "the ECA rules of examples/hic/hic.yaml"},
    {"examples/guards/buy_ticket_book_car.deps.yaml",
     "the dependencies of examples/guards/buy_ticket_book_car.yaml"},
    {"examples/nats/producer.yaml",
     "needs a nats-server: nats_split_workflow_test.cpp, under every director"},
    {"examples/nats/consumer.yaml",
     "needs a nats-server: nats_split_workflow_test.cpp, under every director"},
    {"examples/nats/dispatcher.yaml",
     "needs a nats-server: nats_split_workflow_test.cpp, with the replicas, its own director"},
    {"examples/nats/replica.yaml",
     "needs a nats-server and runs for 10 s: nats_split_workflow_test.cpp, its own director"},
    {"gsm/design_to_order.yaml", "a GSM model, run by gsm/design_to_order_run.yaml"},
    {"linear_road.yaml", "checked against the reference answers: lr_pipeline_test.cpp"},
    {"linear_road_partitioned.yaml",
     "checked against the reference answers: workflow_differential_test.cpp, "
     "workflow_rules_test.cpp"},
    {"linear_road_windows.yaml",
     "checked against the reference answers: workflow_differential_test.cpp, under every "
     "director, and on the shared dataset: workflow_dataset_test.cpp"},
    {"linear_road_windows/statistics.yaml",
     "checked against the reference's statistics, stopped cars and accidents: "
     "windowed_parts_test.cpp, under every director"},
    {"linear_road_windows/segment_statistics.yaml",
     "the sub-workflow of linear_road_windows/statistics.yaml"},
    {"linear_road_windows/stopped_cars.yaml",
     "the sub-workflow of linear_road_windows/statistics.yaml"},
    {"linear_road_windows/accidents.yaml",
     "the sub-workflow of linear_road_windows/statistics.yaml"},
    {"sky_annotation/sky_annotation.yaml",
     "writes files, loops until opinions converge: sky_annotation_test.cpp under every director"},
    {"supply_chain/supply_chain.yaml",
     "endless, pushed to over WebSockets: supply_chain_test.cpp runs it with the load generator, "
     "under the server and with the pages in Chromium"},
    {"experiments/quick.yaml", "an experiment: experiment_command_test.cpp"},
    {"experiments/all_policies.yaml", "an experiment: experiment_command_test.cpp"},
    {"experiments/qbs_sensitivity.yaml", "an experiment: experiment_command_test.cpp"},
    {"experiments/rr_sensitivity.yaml", "an experiment: experiment_command_test.cpp"},
};

// The lines of each stream, in order.
std::map<std::string, std::vector<std::string>> by_stream(const std::vector<std::string>& lines,
                                                          const std::string& streams) {
  std::regex pattern(streams);
  std::map<std::string, std::vector<std::string>> result;
  for (const std::string& line : lines) {
    std::smatch match;
    result[std::regex_search(line, match, pattern) ? match[1].str() : ""].push_back(line);
  }
  return result;
}

struct Case {
  ShippedExample example;
  std::string director;
  std::string clock;  // empty: the file's own
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.example.workflow << " " << c.director << " " << c.clock;
}

std::vector<Case> every_case() {
  std::vector<Case> cases;
  for (const ShippedExample& example : kShipped)
    for (const std::string& director : kEveryDirector) {
      if (example.own_clock)
        cases.push_back({example, director, ""});
      else
        for (const char* clock : {"real", "virtual"})
          cases.push_back({example, director, clock});
    }
  return cases;
}

std::string case_label(const Case& c) {
  std::string name = c.example.workflow.substr(0, c.example.workflow.size() - 5);
  for (char& ch : name)
    if (ch == '/' || ch == '.') ch = '_';
  return name + "_" + director_label(c.director) + (c.clock.empty() ? "" : "_" + c.clock);
}

class ShippedExamples : public ::testing::TestWithParam<Case> {};

TEST_P(ShippedExamples, PrintTheExpectedOutput) {
  const Case& c = GetParam();
  std::vector<std::string> args = {"run", kWorkflows + c.example.workflow};
  for (const std::string& a : director_args(c.director))
    args.push_back(a);
  if (!c.clock.empty()) args.insert(args.end(), {"--clock", c.clock});
  args.insert(args.end(), c.example.extra.begin(), c.example.extra.end());
  ProcessResult result = run_cwf(args);
  ASSERT_EQ(result.status, 0) << result.err;
  std::vector<std::string> actual = lines_of(result.out);
  std::vector<std::string> expected = lines_of(read_file(kWorkflows + c.example.expected));
  if (c.example.streams.empty())
    EXPECT_EQ(actual, expected);
  else
    EXPECT_EQ(by_stream(actual, c.example.streams), by_stream(expected, c.example.streams));
}

INSTANTIATE_TEST_SUITE_P(EveryDirectorAndClock, ShippedExamples, ::testing::ValuesIn(every_case()),
                         [](const auto& info) { return case_label(info.param); });

// What a user who runs an example as it is gets: the expected file, byte for byte (an example
// whose lines interleave in any order asks for a director that fixes one order).
TEST(ShippedExamples, AsTheyArePrintTheExpectedFileExactly) {
  for (const ShippedExample& example : kShipped) {
    std::vector<std::string> args = {"run", kWorkflows + example.workflow};
    args.insert(args.end(), example.extra.begin(), example.extra.end());
    ProcessResult result = run_cwf(args);
    EXPECT_EQ(result.status, 0) << example.workflow << "\n" << result.err;
    EXPECT_EQ(result.out, read_file(kWorkflows + example.expected)) << example.workflow;
  }
}

TEST(ShippedExamples, EveryWorkflowFileIsTestedHereOrListedWithItsTest) {
  std::set<std::string> listed;
  for (const ShippedExample& example : kShipped)
    listed.insert(example.workflow);
  for (const auto& [file, where] : kTestedElsewhere) {
    EXPECT_EQ(listed.count(file), 0u) << file << " is listed twice";
    listed.insert(file);
  }
  std::set<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(kWorkflows))
    if (entry.is_regular_file() && entry.path().extension() == ".yaml")
      found.insert(fs::relative(entry.path(), kWorkflows).generic_string());
  EXPECT_EQ(found, listed);
}

TEST(ShippedExamples, AnExampleWhoseLinesInterleaveSaysSoAndHasSeveralStreams) {
  for (const ShippedExample& example : kShipped) {
    if (example.streams.empty()) continue;
    EXPECT_NE(read_file(kWorkflows + example.workflow).find("interleave in any order"),
              std::string::npos)
        << example.workflow << " does not say that its lines interleave in any order";
    auto streams = by_stream(lines_of(read_file(kWorkflows + example.expected)), example.streams);
    EXPECT_GE(streams.size(), 2u) << example.workflow << ": " << example.streams
                                  << " finds one stream only";
  }
}

}  // namespace
}  // namespace cwf::testing
