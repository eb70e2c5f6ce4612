// What a group costs the window operator, and whether memory follows the live groups: a stream
// of 800,000 events whose keys come and go as cars do (each key reports 4 times, one report
// every 1,000 events, then never again; 1,000 keys live at a time, 200,000 keys in all), into
// {2 tokens, step 1 token, group_by key} windows (the thesis's segment-change window), each
// window taken and finished as an actor would:
//   churn/idle      : with `idle` (2,000 ns, event times are 0, 1, 2, ...): quiet groups end
//   churn/kept      : without: every key's group stays, with its last event, to the end
//   steady/idle     : the same events over 1,000 keys that never go away (no group is created
//                     after the first 1,000): the baseline for the cost of a group
// Each case checks its window count (800,000: 3 full windows and 1 partial per trip). Counters:
// groups alive at the end of the stream (before the end of input) and the most alive at once.
// Printed at the end: the cost of creating and ending one group, (churn/idle - steady/idle) /
// 199,000 groups, from the medians of this run. Memory: run one case alone
// (--benchmark_filter=churn/kept --benchmark_repetitions=1) under /usr/bin/time -v.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/median_reporter.hpp"
#include "bench/window_operator.hpp"

namespace {

using namespace cwf;

using Operator = cwf_bench::WindowOperator;

constexpr std::int64_t kLive = 1000;       // keys reporting at the same time
constexpr std::int64_t kReports = 4;       // reports per key
constexpr std::int64_t kEvents = 800'000;  // 200,000 keys of 4 reports
constexpr Duration kIdle = 2 * kLive;      // quiet for two report intervals

std::vector<Event> stream(bool churn) {
  std::vector<Event> out;
  out.reserve(kEvents);
  for (std::int64_t i = 0; i < kEvents; ++i) {
    // Churn: block b (kLive * kReports events) is keys b*kLive .. b*kLive + kLive - 1, each
    // reporting every kLive events.
    std::int64_t key = churn ? i % kLive + kLive * (i / (kLive * kReports)) : i % kLive;
    out.push_back(Event{Value::record({{"car", Value(key)}, {"v", Value(i)}}), i, {}});
  }
  return out;
}

void BM_Groups(benchmark::State& state, bool churn, bool idle) {
  const std::vector<Event> events = stream(churn);
  WindowSpec spec;
  spec.size = parse_window_extent("2 tokens");
  spec.step = parse_window_extent("1 token");
  spec.group_by = {"/car"};
  if (idle) spec.idle = kIdle;
  double alive = 0, most = 0;
  for (auto _ : state) {
    Operator op(spec);
    std::int64_t windows = 0;
    std::size_t peak = 0;
    auto take = [&] {
      while (op.has_window()) {
        benchmark::DoNotOptimize(op.front_window().events.size());
        op.finish_window(true, true);
        ++windows;
      }
    };
    for (std::size_t i = 0; i < events.size(); ++i) {
      op.push(Event(events[i]));
      if (i % 64 == 63) {  // a drain of 64 events, as a director hands them over
        op.advance(events[i].time, false);
        take();
        peak = std::max(peak, op.groups());
      }
    }
    alive = static_cast<double>(op.groups());
    most = static_cast<double>(peak);
    op.advance(events.back().time, true);
    take();
    if (windows != kEvents) {
      state.SkipWithError(("windows " + std::to_string(windows) + " != 800000").c_str());
      return;
    }
  }
  state.counters["groups_at_end"] = alive;
  state.counters["most_groups"] = most;
  state.SetItemsProcessed(state.iterations() * kEvents);
}

class GroupReporter final : public cwf_bench::MedianReporter {
 public:
  void Finalize() override {
    ConsoleReporter::Finalize();
    const Median* churn = find("churn/idle");
    const Median* steady = find("steady/idle");
    const Median* kept = find("churn/kept");
    if (!churn || !steady || !kept || churn->rate <= 0 || steady->rate <= 0 || kept->rate <= 0)
      return;
    const double ns_churn = 1e9 / churn->rate, ns_steady = 1e9 / steady->rate;
    const double groups = static_cast<double>(kEvents / kReports - kLive);
    std::printf("\nMedians of this run:\n");
    std::printf("  steady/idle  %6.1f ns/event\n", ns_steady);
    std::printf("  churn/idle   %6.1f ns/event\n", ns_churn);
    std::printf("  churn/kept   %6.1f ns/event\n", 1e9 / kept->rate);
    std::printf(
        "  a group created and ended: %.0f ns ((churn/idle - steady/idle) x %lld events "
        "/ %.0f groups)\n",
        (ns_churn - ns_steady) * static_cast<double>(kEvents) / groups,
        static_cast<long long>(kEvents), groups);
  }
};

}  // namespace

int main(int argc, char** argv) {
  cwf_bench::initialize_with_defaults(
      argc, argv, {"--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true"});
  benchmark::RegisterBenchmark("steady/idle", BM_Groups, false, true)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("churn/idle", BM_Groups, true, true)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("churn/kept", BM_Groups, true, false)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  GroupReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
