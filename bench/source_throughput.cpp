// File source throughput: events per second from csv_source and jsonl_source into a sink that
// only counts (scheduled director, one worker, FIFO policy), with and without a `time`
// expression, on the real clock (the file read ahead on a thread of its own) and on a virtual
// clock (read in the source's firings); a file copied through jsonl_source and jsonl_sink (read
// ahead and written behind, or read in firings); plus the JSON-lines parser alone on one line.
//
// The input files (200,000 lines of {id, name, price, ts[, tags]}) are written once to the
// temporary folder ($TMPDIR or /tmp).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "actors/register.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/values/value_json.hpp"
#include "schedulers/fifo_scheduler.hpp"

namespace {

using namespace cwf;

constexpr int kLines = 200000;

std::string temp_dir() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? std::string(dir) + "/" : std::string("/tmp/");
}

const std::string& csv_file() {
  static const std::string path = [] {
    std::string p = temp_dir() + "cwf_bench_sources.csv";
    std::ofstream out(p);
    out << "id,name,price,ts\n";
    for (int i = 0; i < kLines; ++i)
      out << i << ",name" << i % 100 << "," << i * 0.25 << "," << 1700000000 + i << "\n";
    return p;
  }();
  return path;
}

const std::string& jsonl_file() {
  static const std::string path = [] {
    std::string p = temp_dir() + "cwf_bench_sources.jsonl";
    std::ofstream out(p);
    for (int i = 0; i < kLines; ++i)
      out << "{\"id\":" << i << ",\"name\":\"name" << i % 100 << "\",\"price\":" << i * 0.25
          << ",\"ts\":" << 1700000000 + i << ",\"tags\":[1,2]}\n";
    return p;
  }();
  return path;
}

class CountSink final : public Actor {
 public:
  CountSink() { add_input("in"); }
  void fire(FiringContext& context) override { count += context.window().size(); }
  std::size_t count = 0;
};

const ActorRegistry& registry() {
  static const ActorRegistry* r = [] {
    auto* registry = new ActorRegistry();
    actors::register_all(*registry);
    return registry;
  }();
  return *r;
}

std::unique_ptr<Clock> make_clock(bool real) {
  if (real) return std::make_unique<RealClock>();
  return std::make_unique<VirtualClock>();
}

void run_source(benchmark::State& state, const std::string& type, const std::string& path,
                bool with_time, bool real_clock) {
  for (auto _ : state) {
    Workflow workflow("bench");
    std::map<std::string, Value> values{{"path", Value(path)}};
    if (with_time) values["time"] = Value("/ts");
    workflow.add("src", registry().find(type)->factory(Params(values, {}, "")));
    auto sink = std::make_unique<CountSink>();
    CountSink& counted = *sink;
    workflow.add("sink", std::move(sink));
    workflow.connect("src", "sink");
    auto clock = make_clock(real_clock);
    ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>());
    run_workflow(workflow, director, *clock);
    if (counted.count != static_cast<std::size_t>(kLines)) state.SkipWithError("lost events");
  }
  state.SetItemsProcessed(state.iterations() * kLines);
}

void BM_CsvSource(benchmark::State& state) {
  run_source(state, "csv_source", csv_file(), state.range(0) != 0, state.range(1) != 0);
}
BENCHMARK(BM_CsvSource)
    ->ArgNames({"time", "real_clock"})
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

void BM_JsonlSource(benchmark::State& state) {
  run_source(state, "jsonl_source", jsonl_file(), state.range(0) != 0, state.range(1) != 0);
}
BENCHMARK(BM_JsonlSource)
    ->ArgNames({"time", "real_clock"})
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// jsonl_source -> jsonl_sink: the file read and written again, with a worker for each side.
void BM_JsonlCopy(benchmark::State& state) {
  const std::string out = temp_dir() + "cwf_bench_copy.jsonl";
  for (auto _ : state) {
    Workflow workflow("bench");
    workflow.add("src", registry().find("jsonl_source")
                            ->factory(Params({{"path", Value(jsonl_file())}}, {}, "")));
    workflow.add("sink",
                 registry().find("jsonl_sink")->factory(Params({{"path", Value(out)}}, {}, "")));
    workflow.connect("src", "sink");
    auto clock = make_clock(state.range(0) != 0);
    ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>(), 2);
    RunSummary summary = run_workflow(workflow, director, *clock);
    if (summary.incomplete() != 0) state.SkipWithError("lost events");
  }
  state.SetItemsProcessed(state.iterations() * kLines);
}
BENCHMARK(BM_JsonlCopy)->ArgName("real_clock")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_JsonParseLine(benchmark::State& state) {
  const std::string line =
      R"({"id":123456,"name":"name42","price":30864.25,"ts":1700123456,"tags":[1,2]})";
  JsonParser parser;
  for (auto _ : state)
    benchmark::DoNotOptimize(parser.parse(line));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_JsonParseLine);

}  // namespace

BENCHMARK_MAIN();
