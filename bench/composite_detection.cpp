// Composite event detection, occurrences/s through the EVE detector (actors/eca/event_detector)
// with 10,000 workflow instances open at once, against a hand-written per-instance state machine
// that detects the same composites in the same run:
//   seq/*  SEQ(REQ(a), REQ(b)): every instance's a, then every instance's b, in rounds
//   con/*  CON(REQ(a), REQ(b)): the same stream with b before a in odd instances
// Both variants build the same composite occurrence record per detection
// (make_composite_occurrence), and the number of
// composites found must be one per instance and round (else SkipWithError).
// Default 3 repetitions, aggregates only; the ratios of the medians are printed at the end.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/eca/event_detector.hpp"
#include "actors/eca/occurrence.hpp"
#include "bench/median_reporter.hpp"

namespace {

using namespace cwf;
using namespace cwf::eca;

constexpr int kInstances = 10'000;
constexpr int kRounds = 5;
constexpr std::int64_t kEvents = 2LL * kInstances * kRounds;

std::vector<Value> stream(bool swap_odd) {
  std::vector<Value> out;
  out.reserve(kEvents);
  std::int64_t id = 1;
  Timestamp t = 0;
  auto add = [&](const char* type, int instance) {
    OccurrenceSpec spec;
    spec.type = type;
    spec.site = "s1";
    spec.id = id++;
    spec.time = ++t;
    spec.instance = Value(static_cast<std::int64_t>(instance));
    out.push_back(make_occurrence(std::move(spec)));
  };
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kInstances; ++i)
      add(swap_odd && i % 2 ? "REQ(b)" : "REQ(a)", i);
    for (int i = 0; i < kInstances; ++i)
      add(swap_odd && i % 2 ? "REQ(a)" : "REQ(b)", i);
  }
  return out;
}

const std::vector<Value>& seq_stream() {
  static const std::vector<Value> s = stream(false);
  return s;
}
const std::vector<Value>& con_stream() {
  static const std::vector<Value> s = stream(true);
  return s;
}

void detector(benchmark::State& state, const char* expression, const std::vector<Value>& events) {
  for (auto _ : state) {
    auto graph = std::make_shared<DetectorGraph>();
    int root = graph->add(*parse_event_expression(expression));
    EventDetector d(graph, {});
    std::int64_t found = 0;
    for (const Value& e : events)
      d.process(e, [&](int node, const Value&) { found += node == root; });
    if (found != kInstances * kRounds) state.SkipWithError("wrong number of composites");
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(state.iterations() * kEvents);
}

// The baseline: per instance, the unconsumed a's and b's in arrival order; `ordered` is SEQ
// (b needs an earlier a; a lone b is dropped), otherwise CON (either order).
void hand_state_machine(benchmark::State& state, bool ordered, const std::vector<Value>& events) {
  for (auto _ : state) {
    struct Held {
      std::vector<Value> a, b;  // vectors: an empty one allocates nothing
    };
    std::unordered_map<std::int64_t, Held> instances;
    std::int64_t found = 0, next_id = 1;
    const Value seq_type("SEQ(REQ(a), REQ(b))"), con_type("CON(REQ(a), REQ(b))");
    const Value site("s1"), broker("detector");
    auto compose = [&](const Value& type, const Value& instance, Value first, Value second) {
      Timestamp time = occurrence_time(second);
      benchmark::DoNotOptimize(make_composite_occurrence(
          type, site, next_id++, time, instance, broker, {std::move(first), std::move(second)}));
      ++found;
    };
    for (const Value& e : events) {
      const Value& instance = field(e, kInstance);
      std::int64_t key = instance.as_int();
      bool is_a = occurrence_type(e) == "REQ(a)";
      Held& held = instances[key];
      if (ordered) {
        if (is_a) {
          held.a.push_back(e);
        } else if (!held.a.empty() && occurrence_time(held.a.front()) < occurrence_time(e)) {
          Value first = std::move(held.a.front());
          held.a.erase(held.a.begin());
          compose(seq_type, instance, std::move(first), e);
        }
      } else {
        auto& other = is_a ? held.b : held.a;
        if (other.empty()) {
          (is_a ? held.a : held.b).push_back(e);
        } else {
          Value partner = std::move(other.front());
          other.erase(other.begin());
          if (is_a)
            compose(con_type, instance, e, std::move(partner));
          else
            compose(con_type, instance, std::move(partner), e);
        }
      }
      if (held.a.empty() && held.b.empty()) instances.erase(key);
    }
    if (found != kInstances * kRounds) state.SkipWithError("wrong number of composites");
  }
  state.SetItemsProcessed(state.iterations() * kEvents);
}

class RatioReporter final : public cwf_bench::MedianReporter {
 public:
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nMedians of this run (occurrences/s, %d instances), detector / hand-written:\n",
                kInstances);
    for (const char* c : {"seq", "con"}) {
      double d = rate(std::string(c) + "/detector"), h = rate(std::string(c) + "/hand");
      std::printf("  %-4s detector %12.0f   hand %12.0f   ratio %.2f\n", c, d, h,
                  h > 0 ? d / h : 0.0);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  cwf_bench::initialize_with_defaults(
      argc, argv, {"--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"});
  benchmark::RegisterBenchmark("seq/detector", [](benchmark::State& s) {
    detector(s, "SEQ(REQ(a), REQ(b))", seq_stream());
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("seq/hand", [](benchmark::State& s) {
    hand_state_machine(s, true, seq_stream());
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("con/detector", [](benchmark::State& s) {
    detector(s, "CON(REQ(a), REQ(b))", con_stream());
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("con/hand", [](benchmark::State& s) {
    hand_state_machine(s, false, con_stream());
  })->Unit(benchmark::kMillisecond);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
