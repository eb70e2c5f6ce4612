// Centralized GSM B-steps per second with 100,000 instances on one thread, for the synthetic
// models of 000 Table 5.5.1 (10-Stg-Seq, 1-in-9-Split) and Design-to-order:
//   MODEL/epdg      : each step evaluates the rules of its event's ePDG, in graph order
//   MODEL/all_rules : each step evaluates every rule in graph order (the baseline: same result,
//                     no reachability)
// The event stream is generated once per model by driving instances forward: a random instance
// gets, 4 times in 5, the termination event of one of its open atomic stages, else a uniformly
// random event type (most of which change nothing, as in the thesis's uniform workloads). Both
// variants replay the same stream on fresh instances and must generate the same changes (else
// SkipWithError). Default 3 repetitions, aggregates only; the ratios of the medians of this run
// are printed at the end.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "actors/gsm/bstep_engine.hpp"
#include "actors/gsm/model_loader.hpp"
#include "actors/gsm/synthetic_models.hpp"
#include "bench/gsm_stream.hpp"
#include "bench/median_reporter.hpp"

namespace {

using namespace cwf::gsm;

constexpr InstanceId kInstances = 100000;
constexpr std::size_t kSteps = 1000000;

struct Workload {
  std::shared_ptr<const CompiledModel> model;
  std::vector<std::pair<InstanceId, int>> stream;
  std::uint64_t generated = 0;  // status changes and invocations the stream generates
  std::uint64_t changes = 0;    // of which status changes
};

Workload make_workload(std::shared_ptr<const CompiledModel> model) {
  Workload w{std::move(model), {}, 0, 0};
  BStepEngine driver(w.model);
  w.stream = cwf_bench::drive_gsm_stream(driver, kInstances, kSteps,
                                         [&w](const std::vector<Generated>& generated) {
                                           w.generated += generated.size();
                                           for (const Generated& g : generated)
                                             w.changes += g.kind == Generated::Kind::status;
                                         });
  return w;
}

const Workload& workload(const std::string& name) {
  static std::map<std::string, Workload> workloads;
  auto it = workloads.find(name);
  if (it != workloads.end()) return it->second;
  Model model;
  if (name == "seq10") {
    model = load_model_text(sequence_model_yaml(10), "seq10.yaml");
  } else if (name == "split9") {
    model = load_model_text(split_model_yaml(9), "split9.yaml");
  } else {
    // Design-to-order is read from the source tree, found from the working directory up.
    std::filesystem::path dir = std::filesystem::current_path();
    for (; !dir.empty(); dir = dir.parent_path()) {
      if (std::filesystem::exists(dir / "workflows/gsm/design_to_order.yaml")) break;
      if (dir == dir.parent_path()) {
        dir.clear();
        break;
      }
    }
    if (dir.empty()) return workloads[name];
    model = load_model_file((dir / "workflows/gsm/design_to_order.yaml").string());
  }
  return workloads[name] = make_workload(CompiledModel::compile(std::move(model)));
}

void replay(benchmark::State& state, const std::string& name, BStepEngine::Plan plan) {
  const Workload& w = workload(name);
  if (!w.model) {
    state.SkipWithError("workflows/gsm/design_to_order.yaml not found: run from the source tree");
    return;
  }
  std::vector<Generated> generated;
  generated.reserve(64);
  double rules = 0;
  for (auto _ : state) {
    state.PauseTiming();
    BStepEngine engine(w.model, plan);
    engine.reserve(kInstances);
    for (InstanceId i = 0; i < kInstances; ++i)
      engine.add_instance();
    std::uint64_t total = 0;
    state.ResumeTiming();
    for (const auto& [x, event] : w.stream) {
      generated.clear();
      engine.step(x, event, {}, generated);
      total += generated.size();
    }
    benchmark::DoNotOptimize(total);
    rules = static_cast<double>(engine.rules_evaluated()) / static_cast<double>(kSteps);
    if (total != w.generated)
      state.SkipWithError("the replay generated other events than the driver");
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSteps));
  state.counters["rules_per_step"] = rules;
  state.counters["changes_per_step"] = static_cast<double>(w.changes) / static_cast<double>(kSteps);
}

class RatioReporter final : public cwf_bench::MedianReporter {
 public:
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nMedians of this run (B-steps/s, %u instances, one thread), ePDG / all rules:\n",
                kInstances);
    for (const char* m : {"seq10", "split9", "design_to_order"}) {
      double e = rate(std::string(m) + "/epdg"), a = rate(std::string(m) + "/all_rules");
      std::printf("  %-16s epdg %12.0f   all rules %12.0f   ratio %.2f\n", m, e, a,
                  a > 0 ? e / a : 0.0);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  cwf_bench::initialize_with_defaults(
      argc, argv, {"--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"});
  for (std::string model : {"seq10", "split9", "design_to_order"}) {
    benchmark::RegisterBenchmark(
        (model + "/epdg").c_str(),
        [model](benchmark::State& s) { replay(s, model, BStepEngine::Plan::reachable); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(
        (model + "/all_rules").c_str(),
        [model](benchmark::State& s) { replay(s, model, BStepEngine::Plan::all_rules); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
