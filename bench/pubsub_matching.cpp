// Content-based matching throughput, publications/s, 10,000 subscriptions of 3 predicates each.
//   equality: [symbol, =, S<k>] (1,000 symbols), [price, between, lo, lo + 20] (price 0-120),
//             [volume, >, v] (volume 0-1,000)
//   ranges:   [price, between, lo, lo + 2] (price 0-1,000), [volume, >, v], [qty, <, q]
//             (no equality: the index files them under the price range, a stabbing tree)
// Publications draw every attribute uniformly.
// Variants, all in the same run: linear_scan (every filter tested per publication, the
// baseline), index (MatchingIndex::match) and broker (Broker::publish: index, per-subscriber
// deliveries). Each variant's number of matches is checked against the scan's (else
// SkipWithError). The ratios of the medians are printed at the end.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "actors/pubsub/broker.hpp"
#include "actors/pubsub/matching_index.hpp"
#include "bench/median_reporter.hpp"

namespace {

using namespace cwf;
using namespace cwf::pubsub;

constexpr int kSubscriptions = 10000;
constexpr int kSymbols = 1000;
constexpr int kPublications = 8192;

struct Workload {
  std::vector<Filter> filters;
  std::vector<Value> publications;
};

enum class WorkloadKind { equality, ranges };

Workload make_ranges() {
  Workload w;
  std::mt19937 rng(43);
  for (int i = 0; i < kSubscriptions; ++i) {
    double lo = static_cast<double>(rng() % 998);
    w.filters.push_back(Filter::parse(Value::array({
        Value::array({Value("price"), Value("between"), Value(lo), Value(lo + 2)}),
        Value::array({Value("volume"), Value(">"), Value(static_cast<int>(rng() % 1000))}),
        Value::array({Value("qty"), Value("<"), Value(static_cast<int>(rng() % 100))}),
    })));
  }
  const Schema* schema = Schema::intern({"price", "volume", "qty"});
  for (int i = 0; i < kPublications; ++i)
    w.publications.push_back(Value::record(
        schema, {Value((rng() % 100000) / 100.0), Value(static_cast<int>(rng() % 1000)),
                 Value(static_cast<int>(rng() % 100))}));
  return w;
}

const Workload& workload(WorkloadKind kind) {
  static const Workload ranges = make_ranges();
  if (kind == WorkloadKind::ranges) return ranges;
  static const Workload w = [] {
    Workload w;
    std::mt19937 rng(42);
    auto symbol = [&] { return Value("S" + std::to_string(rng() % kSymbols)); };
    for (int i = 0; i < kSubscriptions; ++i) {
      double lo = static_cast<double>(rng() % 100);
      w.filters.push_back(Filter::parse(Value::array({
          Value::array({Value("symbol"), Value("="), symbol()}),
          Value::array({Value("price"), Value("between"), Value(lo), Value(lo + 20)}),
          Value::array({Value("volume"), Value(">"), Value(static_cast<int>(rng() % 1000))}),
      })));
    }
    const Schema* schema = Schema::intern({"symbol", "price", "volume"});
    for (int i = 0; i < kPublications; ++i)
      w.publications.push_back(Value::record(schema, {symbol(), Value((rng() % 12000) / 100.0),
                                                      Value(static_cast<int>(rng() % 1000))}));
    return w;
  }();
  return w;
}

std::size_t scan_matches(const Workload& w) {
  std::size_t matches = 0;
  for (const Value& p : w.publications)
    for (const Filter& f : w.filters)
      matches += f.matches(p);
  return matches;
}

enum class Variant { linear_scan, index, broker };

void BM_Matching(benchmark::State& state, WorkloadKind kind, Variant variant) {
  const Workload& w = workload(kind);
  static std::map<WorkloadKind, std::size_t> expectations;
  if (!expectations.count(kind)) expectations[kind] = scan_matches(w);
  const std::size_t expected = expectations[kind];
  MatchingIndex index;
  Broker broker;
  BrokerOutput out;
  broker.advertise({"feed", ""}, Filter(), out);
  for (int i = 0; i < kSubscriptions; ++i) {
    index.add(static_cast<MatchingIndex::Id>(i), w.filters[i]);
    broker.subscribe({"s" + std::to_string(i), ""}, w.filters[i], out);
  }
  std::vector<MatchingIndex::Id> found;
  for (auto _ : state) {
    std::size_t matches = 0;
    switch (variant) {
      case Variant::linear_scan:
        matches = scan_matches(w);
        break;
      case Variant::index:
        for (const Value& p : w.publications) {
          found.clear();
          index.match(p, found);
          matches += found.size();
        }
        break;
      case Variant::broker:
        for (const Value& p : w.publications) {
          out.clear();
          broker.publish(p, out);
          matches += out.deliveries.size();
        }
        break;
    }
    if (matches != expected) {
      state.SkipWithError(
          ("wrong number of matches " + std::to_string(matches) + " != " + std::to_string(expected))
              .c_str());
      return;
    }
    benchmark::DoNotOptimize(matches);
  }
  state.SetItemsProcessed(state.iterations() * kPublications);
  state.counters["matches_per_publication"] = static_cast<double>(expected) / kPublications;
}

class RatioReporter final : public cwf_bench::MedianReporter {
 public:
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nMedians of this run (publications/s), ratio = variant / linear scan:\n");
    for (const char* k : {"equality", "ranges"}) {
      double scan = rate(std::string(k) + "/linear_scan");
      for (const char* v : {"linear_scan", "index", "broker"}) {
        double variant = rate(std::string(k) + "/" + v);
        std::printf("  %-9s %-12s %14.0f   %8.1fx\n", k, v, variant,
                    scan > 0 ? variant / scan : 0.0);
      }
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  cwf_bench::initialize_with_defaults(
      argc, argv, {"--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"});
  using KindName = std::pair<WorkloadKind, const char*>;
  using VariantName = std::pair<Variant, const char*>;
  for (KindName k :
       {KindName{WorkloadKind::equality, "equality"}, KindName{WorkloadKind::ranges, "ranges"}})
    for (VariantName v :
         {VariantName{Variant::linear_scan, "linear_scan"}, VariantName{Variant::index, "index"},
          VariantName{Variant::broker, "broker"}})
      benchmark::RegisterBenchmark((std::string(k.second) + "/" + v.second).c_str(), BM_Matching,
                                   k.first, v.first)
          ->Unit(benchmark::kMillisecond);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
