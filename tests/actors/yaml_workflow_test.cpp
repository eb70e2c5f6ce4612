// The actors as a workflow file uses them: parameters written in YAML, checked and converted by
// the loader, then run.
#include <gtest/gtest.h>

#include "actor_test_util.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "schedulers/register.hpp"

namespace cwf::actors {
namespace {

using testing::read_file;
using testing::temp_path;
using testing::write_file;

std::unique_ptr<Workflow> load(const std::string& yaml) {
  static const SchedulerRegistry* schedulers = [] {
    auto* r = new SchedulerRegistry();
    cwf::schedulers::register_all(*r);
    return r;
  }();
  LoadContext context{testing::registry(), *schedulers};
  return load_workflow_text(yaml, "test.yaml", ::testing::TempDir(), context);
}

void run(Workflow& workflow) {
  VirtualClock clock;
  ScheduledDirector director(std::make_unique<cwf::schedulers::FifoScheduler>());
  run_workflow(workflow, director, clock);
}

TEST(YamlWorkflow, CsvThroughTransformsToFiles) {
  std::string in = write_file("sensors.tsv",
                              "ts\tsensor\tcelsius\tzip\n"
                              "1700000000\tboiler\t31.5\t007\n"
                              "1700000015\tattic\t29.0\t008\n"
                              "1700000030\tcellar\n"
                              "1700000045\tgarage\t35.25\t009\n");
  std::string hot = temp_path("hot.csv");
  std::string bad = temp_path("bad.jsonl");
  auto workflow = load(R"(
name: sensors
actors:
  sensors:
    type: csv_source
    path: )" + in + R"(
    separator: "\t"
    schema: {zip: string}
    time: /ts
    pace: real
  hot:
    type: filter
    where: /celsius > 30
  shape:
    type: map
    expression: "{sensor: /sensor, f: /celsius * 9 / 5 + 32, zip: /zip}"
  out:
    type: csv_sink
    path: )" + hot + R"(
  bad:
    type: jsonl_sink
    path: )" + bad + R"(
connections:
  - sensors -> hot
  - hot -> shape
  - shape -> out
  - sensors.errors -> bad
)");
  run(*workflow);
  EXPECT_EQ(read_file(hot), "sensor,f,zip\nboiler,88.7,007\ngarage,95.45,009\n");
  EXPECT_EQ(read_file(bad), "{\"file\":\"" + in +
                                "\",\"line\":4,\"text\":\"1700000030\\tcellar\",\"error\":"
                                "\"expected 4 fields, found 2\"}\n");
}

TEST(YamlWorkflow, JsonLinesSplitCountedAndTapped) {
  std::string in =
      write_file("orders.jsonl",
                 "{\"order\": 1, \"items\": [{\"sku\": \"pear\"}, {\"sku\": \"fig\"}]}\n"
                 "{\"order\": 2, \"items\": [{\"sku\": \"kiwi\"}]}\n");
  std::string counts = temp_path("counts.jsonl");
  std::string figs = temp_path("figs.jsonl");
  auto workflow = load(R"(
actors:
  orders: {type: jsonl_source, path: )" +
                       in + R"(}
  items: {type: split, path: /items}
  watch: {type: tap, where: '/sku == "fig"'}
  n: {type: counter}
  counts: {type: jsonl_sink, path: )" +
                       counts + R"(}
  figs: {type: jsonl_sink, path: )" +
                       figs + R"(}
connections:
  - orders -> items
  - items -> watch
  - watch.out -> n
  - n -> counts
  - watch.tap -> figs
)");
  run(*workflow);
  EXPECT_EQ(read_file(counts), "1\n2\n3\n");
  EXPECT_EQ(read_file(figs), "{\"sku\":\"fig\"}\n");
}

TEST(YamlWorkflow, ParameterMistakesPointAtTheParameter) {
  try {
    load(R"(
actors:
  src:
    type: csv_source
    path: /nonexistent/file.csv
)");
    FAIL() << "expected a load error";
  } catch (const std::exception& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("test.yaml:5"), std::string::npos) << message;
    EXPECT_NE(message.find("cannot open '/nonexistent/file.csv'"), std::string::npos) << message;
  }
  try {
    load(R"(
actors:
  gen:
    type: generator
    interval: 1 s
    value: "{id: i, v: j}"
)");
    FAIL() << "expected a load error";
  } catch (const std::exception& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("test.yaml:6"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace cwf::actors
