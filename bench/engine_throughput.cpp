// Engine throughput: how many events per second get through a workflow of pass-through actors,
// under the scheduled director (one worker, FIFO policy), the threaded director, an equivalent
// oneTBB flow graph and a plain function-call loop (the upper bound: the same per-token work with
// no engine at all).
//
// Shapes (every variant builds exactly these; the token is a cwf::Value holding an integer):
//
//   chain    source -> p0 -> p1 -> ... -> p9 -> sink
//            10 pass-through stages; the sink receives every token once.
//
//   diamond  source -+-> a0 -> a1 -> a2 -> a3 -> a4 -+-> sink
//                    +-> b0 -> b1 -> b2 -> b3 -> b4 -+
//            The split is a broadcast: every token goes to both branches (the engine fans an
//            output port out to all its connections; TBB uses a broadcast_node). The join is a
//            merge: both branches feed the single input of the sink, which therefore receives
//            every token twice (no pairing). 10 pass-through stages in all, as in the chain.
//
// The source emits the integers 0 .. N-1, one per firing. The sink counts and sums what it
// receives; a run whose count or sum differs from the expected one fails the benchmark.
//
// items_per_second counts source events (N per iteration); deliveries_per_second counts events
// handed to a node (chain 11 per source event, diamond 12).
//
// TBB: every function_node has tbb::flow::serial concurrency (one body call at a time, like an
// actor) and the default queueing policy. The source is an input_node: the graph runs it as a
// task like any other node, producing the next token once the previous one has been handed to
// its successor, as the engine's source actor is fired by the director. `tbb_flow_1t` runs the
// graph in a task_arena of one thread (the same resources as the scheduled director's single
// worker); `tbb_flow` runs it with the default arena (every core).
// `tbb_flow_1t_put` is the other common way to feed a graph, for reference: the benchmark thread
// try_puts every token into the entry node and then waits; on one thread that buffers all N
// tokens in the entry node's queue before any stage runs (unbounded memory, but batched work).
//
// Flags (besides the --benchmark_* ones): --events=N source events per run (default 1000000).
// Defaults that differ from the library's: 5 repetitions, aggregates only, and random
// interleaving of the repetitions (the machines this runs on are noisy); any --benchmark_* flag
// given overrides them. After the table, the ratios of the median throughputs of this run are
// printed.
#include <benchmark/benchmark.h>
#include <tbb/flow_graph.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "runtime/runner.hpp"
#include "runtime/scheduled_director.hpp"
#include "runtime/threaded_director.hpp"
#include "schedulers/fifo_scheduler.hpp"

namespace {

using cwf::Value;

std::int64_t g_events = 1'000'000;

constexpr int kChainStages = 10;
constexpr int kBranchStages = 5;  // per branch of the diamond

enum class Shape { chain, diamond };

const char* shape_name(Shape shape) {
  return shape == Shape::chain ? "chain" : "diamond";
}

// What the sink must have seen after one run of `events` source events.
struct Expected {
  std::int64_t count;
  std::int64_t sum;
};

Expected expected(Shape shape, std::int64_t events) {
  std::int64_t once = events * (events - 1) / 2;
  if (shape == Shape::chain) return {events, once};
  return {2 * events, 2 * once};
}

std::int64_t deliveries_per_event(Shape shape) {
  return shape == Shape::chain ? kChainStages + 1 : kChainStages + 2;
}

struct Tally {
  std::int64_t count = 0;
  std::int64_t sum = 0;
};

// Fails the benchmark (and stops its loop) unless the tally is the expected one.
bool check(benchmark::State& state, Shape shape, const Tally& tally) {
  Expected want = expected(shape, g_events);
  if (tally.count == want.count && tally.sum == want.sum) return true;
  std::string message = std::string(shape_name(shape)) + ": sink saw " +
                        std::to_string(tally.count) + " tokens summing to " +
                        std::to_string(tally.sum) + ", expected " + std::to_string(want.count) +
                        " summing to " + std::to_string(want.sum);
  state.SkipWithError(message.c_str());
  return false;
}

void set_rates(benchmark::State& state, Shape shape) {
  auto runs = static_cast<std::int64_t>(state.iterations());
  state.SetItemsProcessed(runs * g_events);
  state.counters["deliveries_per_second"] =
      benchmark::Counter(static_cast<double>(runs * g_events * deliveries_per_event(shape)),
                         benchmark::Counter::kIsRate);
}

// ---------------------------------------------------------------------------------------------
// Engine actors

class CountingSource final : public cwf::Actor {
 public:
  explicit CountingSource(std::int64_t events) : events_(events) { add_output("out"); }
  bool prefire(cwf::FiringContext&) override { return next_ < events_; }
  void fire(cwf::FiringContext& context) override { context.emit(Value(next_++)); }
  bool postfire(cwf::FiringContext&) override { return next_ < events_; }

 private:
  std::int64_t events_;
  std::int64_t next_ = 0;
};

class PassThrough final : public cwf::Actor {
 public:
  PassThrough() {
    add_input("in");
    add_output("out");
  }
  void fire(cwf::FiringContext& context) override { context.emit(context.token()); }
};

// Only ever fired by one thread at a time; read after the run has ended.
class SumSink final : public cwf::Actor {
 public:
  explicit SumSink(Tally& tally) : tally_(tally) { add_input("in"); }
  void fire(cwf::FiringContext& context) override {
    for (const cwf::Event& event : context.window()) {
      tally_.sum += event.token.as_int();
      ++tally_.count;
    }
  }

 private:
  Tally& tally_;
};

void build_workflow(cwf::Workflow& workflow, Shape shape, Tally& tally) {
  workflow.emplace<CountingSource>("source", g_events);
  workflow.emplace<SumSink>("sink", tally);
  auto stage = [&](const std::string& name, const std::string& upstream) {
    workflow.emplace<PassThrough>(name);
    workflow.connect(upstream, name);
  };
  if (shape == Shape::chain) {
    std::string upstream = "source";
    for (int i = 0; i < kChainStages; ++i) {
      std::string name = std::string("p") + std::to_string(i);
      stage(name, upstream);
      upstream = name;
    }
    workflow.connect(upstream, "sink");
    return;
  }
  for (const char* branch : {"a", "b"}) {
    std::string upstream = "source";
    for (int i = 0; i < kBranchStages; ++i) {
      std::string name = std::string(branch) + std::to_string(i);
      stage(name, upstream);
      upstream = name;
    }
    workflow.connect(upstream, "sink");
  }
}

enum class Engine { scheduled, threaded };

void BM_Engine(benchmark::State& state, Shape shape, Engine engine) {
  for (auto _ : state) {
    Tally tally;
    cwf::Workflow workflow(shape_name(shape));
    build_workflow(workflow, shape, tally);
    std::unique_ptr<cwf::Director> director;
    if (engine == Engine::scheduled)
      director = std::make_unique<cwf::ScheduledDirector>(
          std::make_unique<cwf::schedulers::FifoScheduler>());
    else
      director = std::make_unique<cwf::ThreadedDirector>();
    cwf::VirtualClock clock;
    cwf::RunSummary summary = cwf::run_workflow(workflow, *director, clock);
    if (summary.total_errors() != 0) {
      state.SkipWithError("the workflow reported errors");
      break;
    }
    if (!check(state, shape, tally)) break;
  }
  set_rates(state, shape);
}

// ---------------------------------------------------------------------------------------------
// oneTBB flow graph of the same shape

enum class TbbSource { input_node, try_put };

void run_tbb_graph(Shape shape, TbbSource source_kind, Tally& tally) {
  namespace flow = tbb::flow;
  flow::graph graph;
  std::int64_t next = 0;
  const std::int64_t events = g_events;
  flow::input_node<Value> source(graph, [&next, events](tbb::flow_control& control) -> Value {
    if (next >= events) {
      control.stop();
      return Value();
    }
    return Value(next++);
  });
  flow::function_node<Value, flow::continue_msg> sink(graph, flow::serial,
                                                      [&tally](const Value& token) {
                                                        tally.sum += token.as_int();
                                                        ++tally.count;
                                                        return flow::continue_msg();
                                                      });
  std::vector<std::unique_ptr<flow::function_node<Value, Value>>> stages;
  auto stage = [&]() -> flow::function_node<Value, Value>& {
    stages.push_back(std::make_unique<flow::function_node<Value, Value>>(
        graph, flow::serial, [](const Value& token) { return token; }));
    return *stages.back();
  };
  // `entry` takes the source's tokens: the first stage of the chain, the split of the diamond.
  flow::broadcast_node<Value> split(graph);
  flow::receiver<Value>* entry = &split;
  if (shape == Shape::chain) {
    flow::sender<Value>* upstream = nullptr;
    for (int i = 0; i < kChainStages; ++i) {
      auto& node = stage();
      if (upstream)
        flow::make_edge(*upstream, node);
      else
        entry = &node;
      upstream = &node;
    }
    flow::make_edge(*upstream, sink);
  } else {
    for (int branch = 0; branch < 2; ++branch) {
      flow::sender<Value>* upstream = &split;
      for (int i = 0; i < kBranchStages; ++i) {
        auto& node = stage();
        flow::make_edge(*upstream, node);
        upstream = &node;
      }
      flow::make_edge(*upstream, sink);
    }
  }
  if (source_kind == TbbSource::input_node) {
    flow::make_edge(source, *entry);
    source.activate();
  } else {
    for (std::int64_t i = 0; i < events; ++i)
      entry->try_put(Value(i));
  }
  graph.wait_for_all();
}

void BM_TbbFlow(benchmark::State& state, Shape shape, TbbSource source, int threads) {
  std::unique_ptr<tbb::task_arena> arena;
  if (threads > 0) arena = std::make_unique<tbb::task_arena>(threads);
  for (auto _ : state) {
    Tally tally;
    if (arena)
      arena->execute([&] { run_tbb_graph(shape, source, tally); });
    else
      run_tbb_graph(shape, source, tally);
    if (!check(state, shape, tally)) break;
  }
  set_rates(state, shape);
}

// ---------------------------------------------------------------------------------------------
// Plain function calls: the same tokens through the same number of pass-through calls.

[[gnu::noinline]] Value pass_through(const Value& token) {
  return token;
}

[[gnu::noinline]] void sink_call(Tally& tally, const Value& token) {
  tally.sum += token.as_int();
  ++tally.count;
}

void BM_PlainLoop(benchmark::State& state, Shape shape) {
  for (auto _ : state) {
    Tally tally;
    for (std::int64_t i = 0; i < g_events; ++i) {
      Value token(i);
      if (shape == Shape::chain) {
        for (int s = 0; s < kChainStages; ++s)
          token = pass_through(token);
        sink_call(tally, token);
      } else {
        for (int branch = 0; branch < 2; ++branch) {
          Value copy = token;
          for (int s = 0; s < kBranchStages; ++s)
            copy = pass_through(copy);
          sink_call(tally, copy);
        }
      }
    }
    benchmark::DoNotOptimize(tally);
    if (!check(state, shape, tally)) break;
  }
  set_rates(state, shape);
}

// ---------------------------------------------------------------------------------------------
// Console output plus the ratios of the median throughputs of this run.

constexpr const char* kVariants[] = {"scheduled", "threaded",        "tbb_flow_1t",
                                     "tbb_flow",  "tbb_flow_1t_put", "plain_loop"};

class RatioReporter final : public benchmark::ConsoleReporter {
 public:
  explicit RatioReporter(OutputOptions options) : ConsoleReporter(options) {}
  bool failed() const { return failed_; }

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) {
        failed_ = true;
        continue;
      }
      bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      bool single = run.run_type == Run::RT_Iteration && run.repetitions <= 1;
      if (!median && !single) continue;
      auto it = run.counters.find("items_per_second");
      if (it == run.counters.end()) continue;
      medians_[run.run_name.function_name] = {it->second.value, run.GetAdjustedRealTime(),
                                              run.GetAdjustedCPUTime()};
    }
  }

  // A summary of the medians and the ratios between them, all from this run.
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::ostream& out = GetOutputStream();
    char line[160];
    out << "\nMedians of this run (" << g_events << " events per run). events/s is by wall time; "
        << "the ratios are scheduled over the variant,\nby wall time (throughput) and by process "
        << "CPU time (work per event, all threads):\n";
    std::snprintf(line, sizeof line, "  %-8s %-16s %12s %10s %10s %12s %12s\n", "shape", "variant",
                  "events/s", "wall ms", "cpu ms", "ratio wall", "ratio cpu");
    out << line;
    for (Shape shape : {Shape::chain, Shape::diamond}) {
      std::string prefix = std::string(shape_name(shape)) + "/";
      auto scheduled = medians_.find(prefix + "scheduled");
      for (const char* variant : kVariants) {
        auto it = medians_.find(prefix + variant);
        if (it == medians_.end()) continue;
        const Median& m = it->second;
        double wall_ratio = 0, cpu_ratio = 0;
        if (scheduled != medians_.end() && scheduled->second.wall > 0 &&
            scheduled->second.cpu > 0) {
          wall_ratio = m.wall / scheduled->second.wall;
          cpu_ratio = m.cpu / scheduled->second.cpu;
        }
        std::snprintf(line, sizeof line, "  %-8s %-16s %12.0f %10.1f %10.1f %12.2f %12.2f\n",
                      shape_name(shape), variant, m.rate, m.wall, m.cpu, wall_ratio, cpu_ratio);
        out << line;
      }
    }
    out.flush();
  }

 private:
  struct Median {
    double rate, wall, cpu;
  };
  std::map<std::string, Median> medians_;
  bool failed_ = false;
};

void register_benchmarks() {
  for (Shape shape : {Shape::chain, Shape::diamond}) {
    std::string prefix = std::string(shape_name(shape)) + "/";
    std::vector<benchmark::internal::Benchmark*> all = {
        benchmark::RegisterBenchmark((prefix + "scheduled").c_str(), BM_Engine, shape,
                                     Engine::scheduled),
        benchmark::RegisterBenchmark((prefix + "threaded").c_str(), BM_Engine, shape,
                                     Engine::threaded),
        benchmark::RegisterBenchmark((prefix + "tbb_flow_1t").c_str(), BM_TbbFlow, shape,
                                     TbbSource::input_node, 1),
        benchmark::RegisterBenchmark((prefix + "tbb_flow").c_str(), BM_TbbFlow, shape,
                                     TbbSource::input_node, 0),
        benchmark::RegisterBenchmark((prefix + "tbb_flow_1t_put").c_str(), BM_TbbFlow, shape,
                                     TbbSource::try_put, 1),
        benchmark::RegisterBenchmark((prefix + "plain_loop").c_str(), BM_PlainLoop, shape),
    };
    for (auto* b : all)
      b->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Our own flag first; everything else goes to the benchmark library. Our defaults come before
  // the user's flags so that theirs win.
  std::string defaults[] = {"--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true",
                            "--benchmark_enable_random_interleaving=true"};
  std::vector<char*> args;
  args.push_back(argv[0]);
  bool color = isatty(fileno(stdout)) != 0;
  for (std::string& flag : defaults)
    args.push_back(flag.data());
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--events=", 9) == 0) {
      g_events = std::strtoll(argv[i] + 9, nullptr, 10);
      if (g_events <= 0) {
        std::fprintf(stderr, "engine_throughput: --events must be positive\n");
        return 2;
      }
      continue;
    }
    if (std::strncmp(argv[i], "--benchmark_color=", 18) == 0) {
      std::string value = argv[i] + 18;
      color = value == "true" || value == "yes" || value == "1" ||
              (value == "auto" && isatty(fileno(stdout)));
    }
    args.push_back(argv[i]);
  }
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  benchmark::AddCustomContext("events_per_run", std::to_string(g_events));
  register_benchmarks();
  auto options = benchmark::ConsoleReporter::OO_Tabular;
  if (color) options = benchmark::ConsoleReporter::OO_ColorTabular;
  RatioReporter reporter(options);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
