// Window operator throughput, events/s through a WindowedReceiver with the aggregate on each
// window, each against a hand-written loop computing the same in the same run:
//   tumbling/*       : 100-token tumbling windows, sum of /v
//   sliding_time/*   : 1,000 groups, time windows of size 100 ns, step 50 ns, sum of /v
//   sliding_sum/*    : size 1,000 tokens, step 1, sum of /v: incremental vs recomputed
// Results are checked (the total over all windows equals the hand loop's; else SkipWithError).
// 5 repetitions, aggregates only; the ratios of the medians of this run are printed at the end.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/window_aggregate.hpp"
#include "bench/median_reporter.hpp"
#include "bench/window_operator.hpp"

namespace {

using namespace cwf;

using Operator = cwf_bench::WindowOperator;

constexpr std::int64_t kEvents = 200000;

std::vector<Event> stream(int groups) {
  std::vector<Event> out;
  out.reserve(kEvents);
  for (std::int64_t i = 0; i < kEvents; ++i)
    out.push_back(Event{Value::record({{"g", Value(i % groups)}, {"v", Value(i % 97)}}), i, {}});
  return out;
}

WindowSpec spec(const char* size, const char* step, bool grouped) {
  WindowSpec s;
  s.size = parse_window_extent(size);
  s.step = parse_window_extent(step);
  if (grouped) {
    s.group_by = {"/g"};
    s.suppress_empty = true;  // 1,000 groups: most time windows of a group are empty
  }
  return s;
}

// Runs the operator with the aggregate; returns the sum of the window results.
std::int64_t run_operator(const WindowSpec& s, const std::vector<Event>& events, bool recompute) {
  Operator op(s);
  actors::IncrementalAggregate agg(actors::builtin_aggregate("sum"), Expression::compile("/v"),
                                   recompute);
  std::int64_t total = 0;
  auto take = [&] {
    while (op.has_window()) {
      total += agg.apply(op.front_window()).as_int();
      op.finish_window(true, true);
    }
  };
  std::size_t i = 0;
  for (const Event& e : events) {
    op.push(Event(e));
    if (++i % 256 == 0) {
      op.advance(e.time, false);
      take();
    }
  }
  op.advance(0, true);
  take();
  return total;
}

std::int64_t hand_tumbling(const std::vector<Event>& events) {
  std::int64_t total = 0;
  for (const Event& e : events)
    total += e.token.field("v")->as_int();  // each event in exactly one window
  return total;
}
std::int64_t hand_sliding_sum(const std::vector<Event>& events) {
  // Windows [k, k + 1000) for every k up to the last full one, then the partial tails.
  std::vector<std::int64_t> v;
  for (const Event& e : events)
    v.push_back(e.token.field("v")->as_int());
  std::int64_t total = 0, window = 0;
  std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) {
    window += v[i];
    if (i >= 1000) window -= v[i - 1000];
    if (i >= 999) total += window;
  }
  for (std::size_t k = n - 999; k < n; ++k) {  // the shrinking windows at the end of input
    window -= v[k - 1];
    total += window;
  }
  return total;
}
std::int64_t hand_sliding_time(const std::vector<Event>& events, int groups) {
  // Per group: windows [L, L + 100) for L = base + 50 k; every event lies in two windows,
  // except those before the group's base + 50.
  std::unordered_map<std::int64_t, Timestamp> base;
  std::int64_t total = 0;
  for (const Event& e : events) {
    std::int64_t g = e.token.field("g")->as_int();
    auto [it, fresh] = base.try_emplace(g, e.time / 50 * 50);
    std::int64_t v = e.token.field("v")->as_int();
    total += e.time >= it->second + 50 ? 2 * v : v;
  }
  (void)groups;
  return total;
}

enum class Case { tumbling, sliding_time, sliding_sum };

void BM_Window(benchmark::State& state, Case c, int variant) {
  // variant 0: incremental operator, 1: recomputing operator, 2: hand loop
  int groups = c == Case::sliding_time ? 1000 : 1;
  std::vector<Event> events = stream(groups);
  WindowSpec s = c == Case::tumbling       ? spec("100 tokens", "100 tokens", false)
                 : c == Case::sliding_time ? spec("100 ns", "50 ns", true)
                                           : spec("1000 tokens", "1 token", false);
  std::int64_t expected = c == Case::tumbling       ? hand_tumbling(events)
                          : c == Case::sliding_time ? hand_sliding_time(events, groups)
                                                    : hand_sliding_sum(events);
  for (auto _ : state) {
    std::int64_t got = variant == 2 ? (c == Case::tumbling       ? hand_tumbling(events)
                                       : c == Case::sliding_time ? hand_sliding_time(events, groups)
                                                                 : hand_sliding_sum(events))
                                    : run_operator(s, events, variant == 1);
    if (got != expected) {
      state.SkipWithError(
          ("wrong total " + std::to_string(got) + " != " + std::to_string(expected)).c_str());
      return;
    }
    benchmark::DoNotOptimize(got);
  }
  state.SetItemsProcessed(state.iterations() * kEvents);
}

class RatioReporter final : public cwf_bench::MedianReporter {
 public:
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nMedians of this run (events/s), ratio = hand loop / variant:\n");
    for (const char* c : {"tumbling", "sliding_time", "sliding_sum"}) {
      double hand = rate(std::string(c) + "/hand_loop");
      for (const char* v : {"incremental", "recomputed", "hand_loop"}) {
        const Median* m = find(std::string(c) + "/" + v);
        if (!m) continue;
        std::printf("  %-13s %-12s %14.0f   hand/variant %8.2f\n", c, v, m->rate,
                    m->rate > 0 ? hand / m->rate : 0.0);
      }
    }
    double inc = rate("sliding_sum/incremental"), rec = rate("sliding_sum/recomputed");
    if (rec > 0) std::printf("  sliding_sum incremental / recomputed: %.1fx\n", inc / rec);
  }
};

}  // namespace

int main(int argc, char** argv) {
  cwf_bench::initialize_with_defaults(
      argc, argv, {"--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true"});
  struct Named {
    const char* name;
    Case c;
    int variant;
  };
  for (Named n : {Named{"tumbling/incremental", Case::tumbling, 0},
                  Named{"tumbling/hand_loop", Case::tumbling, 2},
                  Named{"sliding_time/incremental", Case::sliding_time, 0},
                  Named{"sliding_time/hand_loop", Case::sliding_time, 2},
                  Named{"sliding_sum/incremental", Case::sliding_sum, 0},
                  Named{"sliding_sum/recomputed", Case::sliding_sum, 1},
                  Named{"sliding_sum/hand_loop", Case::sliding_sum, 2}})
    benchmark::RegisterBenchmark(n.name, BM_Window, n.c, n.variant)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
