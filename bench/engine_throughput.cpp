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
#include <tbb/task_arena.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_workflows.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/execution/threaded_director.hpp"
#include "schedulers/fifo_scheduler.hpp"

namespace {

using cwf::Value;
using cwf_bench::Tally;
using cwf_bench::TbbSource;

std::int64_t g_events = 1'000'000;

constexpr int kChainStages = 10;
constexpr int kBranchStages = 5;  // per branch of the diamond

enum class Shape { chain, diamond };

const char* shape_name(Shape shape) {
  return shape == Shape::chain ? "chain" : "diamond";
}

int branches(Shape shape) {
  return shape == Shape::chain ? 1 : 2;
}

int stages_per_branch(Shape shape) {
  return shape == Shape::chain ? kChainStages : kBranchStages;
}

std::int64_t deliveries_per_event(Shape shape) {
  return shape == Shape::chain ? kChainStages + 1 : kChainStages + 2;
}

// Fails the benchmark (and stops its loop) unless the sink saw every token once per branch.
bool check(benchmark::State& state, Shape shape, const Tally& tally) {
  return cwf_bench::check(state, shape_name(shape), tally,
                          cwf_bench::expected_tally(g_events, branches(shape)));
}

void set_rates(benchmark::State& state, Shape shape) {
  auto runs = static_cast<std::int64_t>(state.iterations());
  state.SetItemsProcessed(runs * g_events);
  state.counters["deliveries_per_second"] =
      benchmark::Counter(static_cast<double>(runs * g_events * deliveries_per_event(shape)),
                         benchmark::Counter::kIsRate);
}

// ---------------------------------------------------------------------------------------------
// The engine

// scheduled_unbounded: the scheduled director with every connection unbounded (`--capacity
// unbounded`), to see what the default capacity's check costs in the same run.
enum class Engine { scheduled, scheduled_unbounded, threaded };

void BM_Engine(benchmark::State& state, Shape shape, Engine engine) {
  for (auto _ : state) {
    Tally tally;
    cwf::Workflow workflow(shape_name(shape));
    cwf_bench::build_workflow(workflow, g_events, branches(shape), stages_per_branch(shape), tally);
    if (engine == Engine::scheduled_unbounded)
      workflow.set_queue_defaults({cwf::QueueLimits::kUnbounded, cwf::Overload::block});
    std::unique_ptr<cwf::Director> director;
    if (engine != Engine::threaded)
      director = std::make_unique<cwf::ScheduledDirector>(
          std::make_unique<cwf::schedulers::FifoScheduler>());
    else
      director = std::make_unique<cwf::ThreadedDirector>();
    cwf::VirtualClock clock;
    cwf::RunSummary summary = cwf::run_workflow(workflow, *director, clock);
    if (summary.incomplete() != 0) {
      state.SkipWithError("the workflow reported errors");
      break;
    }
    if (!check(state, shape, tally)) break;
  }
  set_rates(state, shape);
}

// ---------------------------------------------------------------------------------------------
// oneTBB flow graph of the same shape

void BM_TbbFlow(benchmark::State& state, Shape shape, TbbSource source, int threads) {
  std::unique_ptr<tbb::task_arena> arena;
  if (threads > 0) arena = std::make_unique<tbb::task_arena>(threads);
  auto run = [&](Tally& tally) {
    cwf_bench::run_tbb_graph(g_events, branches(shape), stages_per_branch(shape), source, tally,
                             [](const Value& token) { return token; });
  };
  for (auto _ : state) {
    Tally tally;
    if (arena)
      arena->execute([&] { run(tally); });
    else
      run(tally);
    if (!check(state, shape, tally)) break;
  }
  set_rates(state, shape);
}

// ---------------------------------------------------------------------------------------------
// Plain function calls: the same tokens through the same number of pass-through calls.

void BM_PlainLoop(benchmark::State& state, Shape shape) {
  using cwf_bench::pass_through;
  using cwf_bench::sink_call;
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

constexpr const char* kVariants[] = {"scheduled", "scheduled_unbounded", "threaded",  "tbb_flow_1t",
                                     "tbb_flow",  "tbb_flow_1t_put",     "plain_loop"};

class RatioReporter final : public cwf_bench::MedianReporter {
 public:
  explicit RatioReporter(OutputOptions options) : MedianReporter(options) {}

  // A summary of the medians and the ratios between them, all from this run.
  void Finalize() override {
    MedianReporter::Finalize();
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
      const Median* scheduled = find(prefix + "scheduled");
      for (const char* variant : kVariants) {
        const Median* m = find(prefix + variant);
        if (!m || m->rate == 0) continue;
        double wall_ratio = 0, cpu_ratio = 0;
        if (scheduled && scheduled->wall > 0 && scheduled->cpu > 0) {
          wall_ratio = m->wall / scheduled->wall;
          cpu_ratio = m->cpu / scheduled->cpu;
        }
        std::snprintf(line, sizeof line, "  %-8s %-16s %12.0f %10.1f %10.1f %12.2f %12.2f\n",
                      shape_name(shape), variant, m->rate, m->wall, m->cpu, wall_ratio, cpu_ratio);
        out << line;
      }
    }
    out.flush();
  }
};

void register_benchmarks() {
  for (Shape shape : {Shape::chain, Shape::diamond}) {
    std::string prefix = std::string(shape_name(shape)) + "/";
    std::vector<benchmark::internal::Benchmark*> all = {
        benchmark::RegisterBenchmark((prefix + "scheduled").c_str(), BM_Engine, shape,
                                     Engine::scheduled),
        benchmark::RegisterBenchmark((prefix + "scheduled_unbounded").c_str(), BM_Engine, shape,
                                     Engine::scheduled_unbounded),
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
  cwf_bench::Arguments arguments;
  if (!arguments.parse(argc, argv, [](const char* arg) {
        return cwf_bench::positive_flag(arg, "engine_throughput", "events", g_events);
      }))
    return 2;
  if (!arguments.initialize_benchmark()) return 1;
  benchmark::AddCustomContext("events_per_run", std::to_string(g_events));
  register_benchmarks();
  RatioReporter reporter(arguments.output_options());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
