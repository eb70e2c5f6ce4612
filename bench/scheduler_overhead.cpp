// Scheduler overhead: what the scheduled director and its policies cost per event, how it scales
// from one worker to two, how it compares with a oneTBB flow graph on the same threads, and how
// much CPU it burns while the workflow has nothing to do. Four groups of benchmarks, all sharing
// the graphs of bench/bench_workflows.hpp:
//
//   chain/*  source -> p0 -> ... -> p9 -> sink, pass-through stages, --events tokens, the
//            scheduled director on ONE worker under each policy (fifo, qbs, rr, rb with their
//            default parameters, and each with `batch: 1`, one window per decision), next to the
//            plain function-call loop doing the same per-token work (10 non-inlined
//            pass-through calls and a sink call). Per source event there are 11 deliveries
//            (10 stages + the sink) and 12 firings (the source's too).
//                ns per delivery    = run time / (events * 11)
//                overhead (ns)      = ns per delivery (policy) - ns per delivery (plain loop)
//            i.e. everything the engine adds per hop (inbox, window, time keeper, wave tag,
//            wake-ups, the grant and the policy's bookkeeping), not only the policy. The policy's
//            own share is the difference to fifo, the simplest policy.
//
//   par/*    source -> B branches (--branches, default 2) of 5 stages each -> sink, where every
//            stage does --spin rounds of integer arithmetic the compiler cannot remove (a few
//            hundred ns; the plain loop's time shows how much) before passing the token on, so
//            that parallelism can pay. --work_events tokens. The scheduled director with 1 and
//            2 workers under each policy, the threaded director (a thread per actor), the same
//            graph in oneTBB's flow graph (function_node with serial concurrency per actor,
//            broadcast_node for the split, input_node source) in task arenas of 1 and 2
//            threads, the plain loop (the work alone, one thread) and plain_loop_2t (the same
//            work on two threads, half of the branches each, no communication: the most two
//            threads can gain on the machine at the time).
//
//   light/*  the same graph with pass-through stages (no work, --events tokens): the engine's
//            own cost against TBB's on 1 and 2 threads.
//
//   then     one run of par per policy on 2 workers under a wrapper policy that records the share
//            of wall time with 0, 1 and 2 grants in flight (printed after the summary, 2b).
//
//   idle/*   a generator source that emits one event per second (RealClock) -> pass-through ->
//            sink, run for --idle_seconds (default 3) under the scheduled director with 2
//            workers and under the threaded director; the process CPU time (all threads) over
//            the wall time is the CPU an idle workflow burns, in % of one core.
//
// Every run checks what the sink saw (count and sum) and fails the benchmark otherwise.
//
// Flags (besides the --benchmark_* ones): --events=N (default 500000), --work_events=N (default
// 100000), --spin=N (default 200), --branches=N (default 2), --idle_seconds=N (default 3),
// --no_in_flight skips the grants-in-flight report printed after the summary (section 2b).
// Defaults that differ from the library's: 5 repetitions, aggregates only, random interleaving
// of the repetitions (the machines this runs on are noisy). After the table, a summary of the
// medians with the ratios, all from this run.
#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "actors/generator.hpp"
#include "bench/bench_workflows.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/execution/threaded_director.hpp"
#include "runtime/expressions/expression.hpp"
#include "schedulers/register.hpp"

namespace {

using cwf::Value;
using cwf_bench::Tally;

std::int64_t g_events = 500'000;
std::int64_t g_work_events = 100'000;
std::int64_t g_spin = 200;
std::int64_t g_branches = 2;
std::int64_t g_idle_seconds = 3;
bool g_in_flight = true;

constexpr int kChainStages = 10;
constexpr int kBranchStages = 5;

// ---------------------------------------------------------------------------------------------
// Real work per stage

// `rounds` steps of a 64-bit LCG with an xor-shift: each step depends on the previous one, so
// the time is proportional to `rounds` and no step can be skipped.
[[gnu::noinline]] std::uint64_t spin(std::uint64_t x, std::int64_t rounds) {
  for (std::int64_t i = 0; i < rounds; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x >> 29;
  }
  return x;
}

// Does the work, then passes the token on unchanged.
Value work(const Value& token) {
  std::uint64_t h = spin(static_cast<std::uint64_t>(token.as_int()), g_spin);
  benchmark::DoNotOptimize(h);
  return token;
}

class WorkStage final : public cwf::Actor {
 public:
  WorkStage() {
    add_input("in");
    add_output("out");
  }
  void fire(cwf::FiringContext& context) override { context.emit(work(context.token())); }
};

void add_work_stage(cwf::Workflow& workflow, const std::string& name) {
  workflow.emplace<WorkStage>(name);
}

// ---------------------------------------------------------------------------------------------
// The graphs

enum class Graph { chain, par, light };

const char* graph_name(Graph graph) {
  switch (graph) {
    case Graph::chain:
      return "chain";
    case Graph::par:
      return "par";
    case Graph::light:
      return "light";
  }
  return "?";
}

int branches(Graph graph) {
  return graph == Graph::chain ? 1 : static_cast<int>(g_branches);
}

int stages(Graph graph) {
  return graph == Graph::chain ? kChainStages : kBranchStages;
}

std::int64_t events(Graph graph) {
  return graph == Graph::par ? g_work_events : g_events;
}

// Stages plus the sink's copies.
std::int64_t deliveries_per_event(Graph graph) {
  return static_cast<std::int64_t>(branches(graph)) * (stages(graph) + 1);
}

bool check(benchmark::State& state, Graph graph, const Tally& tally) {
  return cwf_bench::check(state, graph_name(graph), tally,
                          cwf_bench::expected_tally(events(graph), branches(graph)));
}

void set_rates(benchmark::State& state, Graph graph) {
  auto runs = static_cast<std::int64_t>(state.iterations());
  state.SetItemsProcessed(runs * events(graph));
  state.counters["deliveries_per_second"] =
      benchmark::Counter(static_cast<double>(runs * events(graph) * deliveries_per_event(graph)),
                         benchmark::Counter::kIsRate);
}

// ---------------------------------------------------------------------------------------------
// Variants

struct Policy {
  const char* label;   // in benchmark names
  const char* name;    // in the registry
  std::int64_t batch;  // 0: the policy's default
};

constexpr Policy kPolicies[] = {
    {"fifo", "fifo", 0},    {"qbs", "qbs", 0},    {"rr", "rr", 0},    {"rb", "rb", 0},
    {"fifo_b1", "fifo", 1}, {"qbs_b1", "qbs", 1}, {"rr_b1", "rr", 1}, {"rb_b1", "rb", 1},
};

std::unique_ptr<cwf::Scheduler> make_policy(const Policy& policy) {
  static const cwf::SchedulerRegistry registry = [] {
    cwf::SchedulerRegistry r;
    cwf::schedulers::register_all(r);
    return r;
  }();
  cwf::SchedulerParameters params;
  if (policy.batch > 0) params["batch"] = Value(policy.batch);
  return registry.create(policy.name, params);
}

// `workers` = 0: the threaded director.
void BM_Engine(benchmark::State& state, Graph graph, Policy policy, unsigned workers) {
  for (auto _ : state) {
    Tally tally;
    cwf::Workflow workflow(graph_name(graph));
    cwf_bench::build_workflow(workflow, events(graph), branches(graph), stages(graph), tally,
                              graph == Graph::par
                                  ? cwf_bench::AddStage(add_work_stage)
                                  : cwf_bench::AddStage(cwf_bench::add_pass_through));
    std::unique_ptr<cwf::Director> director;
    if (workers > 0)
      director = std::make_unique<cwf::ScheduledDirector>(make_policy(policy), workers);
    else
      director = std::make_unique<cwf::ThreadedDirector>();
    cwf::VirtualClock clock;
    cwf::RunSummary summary = cwf::run_workflow(workflow, *director, clock);
    if (summary.incomplete() != 0) {
      state.SkipWithError("the workflow reported errors");
      break;
    }
    if (!check(state, graph, tally)) break;
  }
  set_rates(state, graph);
}

void BM_TbbFlow(benchmark::State& state, Graph graph, int threads) {
  tbb::task_arena arena(threads);
  for (auto _ : state) {
    Tally tally;
    arena.execute([&] {
      if (graph == Graph::par)
        cwf_bench::run_tbb_graph(events(graph), branches(graph), stages(graph),
                                 cwf_bench::TbbSource::input_node, tally, work);
      else
        cwf_bench::run_tbb_graph(events(graph), branches(graph), stages(graph),
                                 cwf_bench::TbbSource::input_node, tally,
                                 [](const Value& token) { return token; });
    });
    if (!check(state, graph, tally)) break;
  }
  set_rates(state, graph);
}

void BM_PlainLoop(benchmark::State& state, Graph graph) {
  const int n_branches = branches(graph);
  const int n_stages = stages(graph);
  for (auto _ : state) {
    Tally tally;
    for (std::int64_t i = 0; i < events(graph); ++i) {
      Value token(i);
      for (int branch = 0; branch < n_branches; ++branch) {
        Value copy = token;
        for (int s = 0; s < n_stages; ++s)
          copy = graph == Graph::par ? work(copy) : cwf_bench::pass_through(copy);
        cwf_bench::sink_call(tally, copy);
      }
    }
    benchmark::DoNotOptimize(tally);
    if (!check(state, graph, tally)) break;
  }
  set_rates(state, graph);
}

// The plain loop's work split over two threads, half of the branches each, with no
// communication: what two threads can gain on this machine under its current load, the ceiling
// for every two-thread variant.
void BM_PlainLoop2(benchmark::State& state, Graph graph) {
  const int n_branches = branches(graph);
  const int n_stages = stages(graph);
  for (auto _ : state) {
    struct alignas(64) PaddedTally : Tally {};  // no false sharing between the threads
    PaddedTally tallies[2];
    auto run = [&](int half) {
      for (std::int64_t i = 0; i < events(graph); ++i) {
        Value token(i);
        for (int branch = half; branch < n_branches; branch += 2) {
          Value copy = token;
          for (int s = 0; s < n_stages; ++s)
            copy = graph == Graph::par ? work(copy) : cwf_bench::pass_through(copy);
          cwf_bench::sink_call(tallies[half], copy);
        }
      }
    };
    std::thread other(run, 1);
    run(0);
    other.join();
    Tally tally{tallies[0].count + tallies[1].count, tallies[0].sum + tallies[1].sum};
    benchmark::DoNotOptimize(tally);
    if (!check(state, graph, tally)) break;
  }
  set_rates(state, graph);
}

// A source that fires once a second on the real clock: the workflow is idle between events.
void BM_Idle(benchmark::State& state, unsigned workers) {
  std::int64_t delivered = 0;
  for (auto _ : state) {
    Tally tally;
    cwf::Workflow workflow("idle");
    cwf::actors::GeneratorOptions options;
    options.value = cwf::Expression::compile("i", cwf::ExprEnvironment{"i"});
    options.interval = cwf::kSecond;
    workflow.emplace<cwf::actors::Generator>("source", std::move(options));
    workflow.emplace<cwf_bench::SumSink>("sink", tally);
    workflow.emplace<cwf_bench::PassThrough>("p0");
    workflow.connect("source", "p0");
    workflow.connect("p0", "sink");
    std::unique_ptr<cwf::Director> director;
    if (workers > 0)
      director = std::make_unique<cwf::ScheduledDirector>(make_policy(kPolicies[0]), workers);
    else
      director = std::make_unique<cwf::ThreadedDirector>();
    cwf::RealClock clock;
    cwf::RunOptions run_options;
    run_options.run_for = g_idle_seconds * cwf::kSecond;
    cwf::RunSummary summary = cwf::run_workflow(workflow, *director, clock, run_options);
    if (summary.incomplete() != 0 || tally.count < g_idle_seconds) {
      state.SkipWithError(
          ("idle: the sink saw " + std::to_string(tally.count) + " events, expected one per second")
              .c_str());
      break;
    }
    delivered += tally.count;
  }
  state.counters["events"] =
      benchmark::Counter(static_cast<double>(delivered), benchmark::Counter::kAvgIterations);
}

// ---------------------------------------------------------------------------------------------
// How many grants are in flight at once: a policy wrapper that forwards every call to the real
// policy and records the time spent with 0, 1 and 2 grants handed out and not yet reported back
// (the director serialises policy calls, so no lock is needed). This is what the policy lets two
// workers overlap, whatever the machine gives the process: with f2 the share of time with two
// grants in flight, two workers can do at most (1 - f2) + 2 * f2 = 1 + f2 times the work of one.

class InFlight final : public cwf::Scheduler {
 public:
  explicit InFlight(std::unique_ptr<cwf::Scheduler> policy) : policy_(std::move(policy)) {}
  std::string_view name() const override { return policy_->name(); }
  void attach(std::span<const cwf::SchedulableActor> actors) override { policy_->attach(actors); }
  void actor_got_work(cwf::ActorId actor) override { policy_->actor_got_work(actor); }
  std::optional<cwf::Grant> next_actor() override {
    auto grant = policy_->next_actor();
    if (grant) {
      tick();
      ++in_flight_;
    } else {
      ++refusals_;
    }
    return grant;
  }
  void firing_started(cwf::ActorId actor) override { policy_->firing_started(actor); }
  void firing_ended(cwf::ActorId actor, const cwf::FiringReport& report) override {
    tick();
    --in_flight_;
    policy_->firing_ended(actor, report);
  }
  void iteration_started() override { policy_->iteration_started(); }
  void iteration_ended() override {
    ++iterations_;
    policy_->iteration_ended();
  }

  double share(int in_flight) const {
    double total = seconds_[0] + seconds_[1] + seconds_[2];
    return total > 0 ? seconds_[in_flight] / total : 0;
  }
  std::uint64_t iterations() const { return iterations_; }
  std::uint64_t refusals() const { return refusals_; }

 private:
  void tick() {
    auto now = std::chrono::steady_clock::now();
    if (started_)
      seconds_[std::min(in_flight_, 2)] += std::chrono::duration<double>(now - last_).count();
    started_ = true;
    last_ = now;
  }

  std::unique_ptr<cwf::Scheduler> policy_;
  int in_flight_ = 0;
  bool started_ = false;
  std::chrono::steady_clock::time_point last_;
  double seconds_[3] = {0, 0, 0};
  std::uint64_t iterations_ = 0, refusals_ = 0;
};

// One run of the working graph per policy on two workers, printed after the benchmarks.
void print_in_flight() {
  std::printf(
      "\n2b. Grants in flight, par graph, 2 workers, one run per policy (share of the run's "
      "wall time\n    with 0, 1 and 2 grants handed out; 1 + f2 bounds 2 workers / 1 "
      "worker; refusals = next_actor\n    returned nothing, the asking worker then waits):\n");
  std::printf("   %-8s %8s %8s %8s %8s %12s %10s\n", "policy", "0", "1", "2", "1 + f2",
              "iterations", "refusals");
  for (const Policy& policy : kPolicies) {
    if (policy.batch != 0) continue;
    Tally tally;
    cwf::Workflow workflow("par");
    cwf_bench::build_workflow(workflow, events(Graph::par), branches(Graph::par),
                              stages(Graph::par), tally, add_work_stage);
    auto wrapper = std::make_unique<InFlight>(make_policy(policy));
    InFlight& in_flight = *wrapper;
    cwf::ScheduledDirector director(std::move(wrapper), 2);
    cwf::VirtualClock clock;
    cwf::run_workflow(workflow, director, clock);
    std::printf("   %-8s %7.1f%% %7.1f%% %7.1f%% %8.2f %12llu %10llu\n", policy.label,
                100 * in_flight.share(0), 100 * in_flight.share(1), 100 * in_flight.share(2),
                1 + in_flight.share(2), static_cast<unsigned long long>(in_flight.iterations()),
                static_cast<unsigned long long>(in_flight.refusals()));
  }
  std::fflush(stdout);
}

// ---------------------------------------------------------------------------------------------
// Summary

class SummaryReporter final : public cwf_bench::MedianReporter {
 public:
  explicit SummaryReporter(OutputOptions options) : MedianReporter(options) {}

  void Finalize() override {
    MedianReporter::Finalize();
    std::ostream& out = GetOutputStream();
    char line[200];
    auto print = [&](const char* format, auto... args) {
      std::snprintf(line, sizeof line, format, args...);
      out << line;
    };
    // Per delivered event, in ns, by wall and by process CPU time (times are in ms per run).
    auto per_delivery = [](Graph graph, double time_ms) {
      return time_ms * 1e6 / static_cast<double>(events(graph) * deliveries_per_event(graph));
    };

    out << "\nMedians of this run.\n\n1. Scheduling overhead, chain of " << kChainStages
        << " pass-through stages, 1 worker, " << g_events << " events per run, "
        << deliveries_per_event(Graph::chain)
        << " deliveries per event.\n   overhead = ns per delivery (policy) - ns per delivery "
           "(plain loop); \"vs fifo\" = overhead - fifo's overhead (by CPU time).\n";
    print("   %-12s %12s %12s %14s %14s %9s\n", "policy", "ns/dlv wall", "ns/dlv cpu",
          "overhead wall", "overhead cpu", "vs fifo");
    const Median* plain = find("chain/plain_loop");
    const Median* fifo = find("chain/fifo_1w");
    auto overhead_cpu = [&](const Median* m) {
      return per_delivery(Graph::chain, m->cpu) - per_delivery(Graph::chain, plain->cpu);
    };
    for (const Policy& policy : kPolicies) {
      const Median* m = find(std::string("chain/") + policy.label + "_1w");
      if (!m || !plain) continue;
      double wall = per_delivery(Graph::chain, m->wall);
      double cpu = per_delivery(Graph::chain, m->cpu);
      print("   %-12s %12.1f %12.1f %14.1f %14.1f %9.1f\n", policy.label, wall, cpu,
            wall - per_delivery(Graph::chain, plain->wall), overhead_cpu(m),
            fifo ? overhead_cpu(m) - overhead_cpu(fifo) : 0.0);
    }
    if (plain)
      print("   %-12s %12.1f %12.1f\n", "plain_loop", per_delivery(Graph::chain, plain->wall),
            per_delivery(Graph::chain, plain->cpu));

    for (Graph graph : {Graph::par, Graph::light}) {
      std::string prefix = std::string(graph_name(graph)) + "/";
      out << "\n"
          << (graph == Graph::par ? "2./3. " : "3b. ") << graph_name(graph) << ": "
          << branches(graph) << " branches of " << kBranchStages
          << (graph == Graph::par ? " working stages (spin " + std::to_string(g_spin) + ")"
                                  : std::string(" pass-through stages"))
          << ", " << events(graph)
          << " events per run. events/s by wall time; cores = process CPU time / wall time\n"
          << "   (what the run got of the machine: plain_loop shows what one thread gets under "
             "the current load).\n";
      print("   %-14s %12s %10s %10s %12s %8s\n", "variant", "events/s", "wall ms", "cpu ms",
            "ns/dlv wall", "cores");
      for (const auto& [name, m] : medians()) {
        if (name.rfind(prefix, 0) != 0 || m.rate == 0) continue;
        print("   %-14s %12.0f %10.1f %10.1f %12.1f %8.2f\n", name.c_str() + prefix.size(), m.rate,
              m.wall, m.cpu, per_delivery(graph, m.wall), m.cpu / m.wall);
      }
      auto ratio = [&](const std::string& a, const std::string& b) {
        const Median* x = find(prefix + a);
        const Median* y = find(prefix + b);
        return x && y && x->wall > 0 ? y->wall / x->wall : 0.0;
      };
      print(
          "   machine: plain_loop_2t / plain_loop = %.2f (two threads that never communicate: "
          "the most any\n   two-thread variant can gain on this machine under its load "
          "during this run)\n",
          ratio("plain_loop_2t", "plain_loop"));
      if (graph == Graph::par) {
        out << "   2 workers / 1 worker (throughput; target >= 1.7):";
        for (const Policy& policy : kPolicies) {
          if (policy.batch != 0) continue;
          print("  %s %.2f", policy.label,
                ratio(std::string(policy.label) + "_2w", std::string(policy.label) + "_1w"));
        }
        print(
            "\n   threaded / scheduled fifo 1 worker: %.2f, threaded / scheduled fifo 2 "
            "workers: %.2f\n",
            ratio("threaded", "fifo_1w"), ratio("threaded", "fifo_2w"));
        print("   tbb 2 threads / tbb 1 thread: %.2f\n", ratio("tbb_2t", "tbb_1t"));
      }
      out << "   scheduled / TBB flow graph, same threads (throughput; target >= 2):";
      for (const char* policy : {"fifo", "qbs", "rr", "rb"}) {
        print("  %s 1t %.2f 2t %.2f", policy, ratio(std::string(policy) + "_1w", "tbb_1t"),
              ratio(std::string(policy) + "_2w", "tbb_2t"));
      }
      out << "\n";
    }

    out << "\n4. Idle workflow (one event per second, " << g_idle_seconds
        << " s on the real clock): process CPU time / wall time (target < 5% of one core)\n";
    for (const char* variant : {"idle/scheduled_2w", "idle/threaded"}) {
      const Median* m = find(variant);
      if (!m || m->wall <= 0) continue;
      print("   %-18s wall %8.1f ms  cpu %7.2f ms  %6.3f%% of one core\n", variant, m->wall, m->cpu,
            100.0 * m->cpu / m->wall);
    }
    out.flush();
  }
};

void register_benchmarks() {
  std::vector<benchmark::internal::Benchmark*> all;
  for (const Policy& policy : kPolicies)
    all.push_back(
        benchmark::RegisterBenchmark((std::string("chain/") + policy.label + "_1w").c_str(),
                                     BM_Engine, Graph::chain, policy, 1u));
  all.push_back(benchmark::RegisterBenchmark("chain/plain_loop", BM_PlainLoop, Graph::chain));
  for (Graph graph : {Graph::par, Graph::light}) {
    std::string prefix = std::string(graph_name(graph)) + "/";
    for (const Policy& policy : kPolicies) {
      if (policy.batch != 0) continue;
      for (unsigned workers : {1u, 2u})
        all.push_back(benchmark::RegisterBenchmark(
            (prefix + policy.label + "_" + std::to_string(workers) + "w").c_str(), BM_Engine, graph,
            policy, workers));
    }
    all.push_back(benchmark::RegisterBenchmark((prefix + "threaded").c_str(), BM_Engine, graph,
                                               kPolicies[0], 0u));
    for (int threads : {1, 2})
      all.push_back(benchmark::RegisterBenchmark(
          (prefix + "tbb_" + std::to_string(threads) + "t").c_str(), BM_TbbFlow, graph, threads));
    all.push_back(
        benchmark::RegisterBenchmark((prefix + "plain_loop").c_str(), BM_PlainLoop, graph));
    all.push_back(
        benchmark::RegisterBenchmark((prefix + "plain_loop_2t").c_str(), BM_PlainLoop2, graph));
  }
  for (auto* b : all)
    b->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
  for (unsigned workers : {2u, 0u})
    benchmark::RegisterBenchmark(workers ? "idle/scheduled_2w" : "idle/threaded", BM_Idle, workers)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MeasureProcessCPUTime()
        ->Iterations(1);
}

}  // namespace

int main(int argc, char** argv) {
  cwf_bench::Arguments arguments;
  bool ok = arguments.parse(argc, argv, [](const char* arg) {
    const char* program = "scheduler_overhead";
    if (std::strcmp(arg, "--no_in_flight") == 0) {
      g_in_flight = false;
      return 1;
    }
    for (auto [name, value] :
         {std::pair{"events", &g_events}, std::pair{"work_events", &g_work_events},
          std::pair{"spin", &g_spin}, std::pair{"branches", &g_branches},
          std::pair{"idle_seconds", &g_idle_seconds}}) {
      int taken = cwf_bench::positive_flag(arg, program, name, *value);
      if (taken != 0) return taken;
    }
    return 0;
  });
  if (!ok) return 2;
  if (g_branches > 26) {
    std::fprintf(stderr, "scheduler_overhead: --branches must be at most 26\n");
    return 2;
  }
  if (!arguments.initialize_benchmark()) return 1;
  benchmark::AddCustomContext("events_per_run", std::to_string(g_events));
  benchmark::AddCustomContext("work_events_per_run", std::to_string(g_work_events));
  benchmark::AddCustomContext("spin_rounds", std::to_string(g_spin));
  benchmark::AddCustomContext("branches", std::to_string(g_branches));
  register_benchmarks();
  SummaryReporter reporter(arguments.output_options());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  if (g_in_flight) print_in_flight();
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
