// Linear Road as fast as possible: the workflow (workflows/linear_road.yaml, and at L = 4 also
// workflows/linear_road_partitioned.yaml) against the reference implementation, both over the same
// input in the same iteration (lr::Rater's trial without pacing, as `cwf lr rate --afap` does),
// under several directors. Each iteration reports the workflow's and the reference's tuples/s and
// their ratio; the summary gives the medians, and each two-worker variant over its one-worker one.
//
// Input: --input=FILE (plain or .xz; e.g. the shared dataset decompressed), else a dataset
// generated once into $TMPDIR (`cwf lr generate --xways 1 --minutes 60 --seed 1`), so the
// benchmark runs on a machine without ../shared. An iteration whose answers differ from the
// reference's is an error (the program fails).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_workflows.hpp"
#include "cli/registries.hpp"
#include "linear_road/csv_file_writer.hpp"
#include "linear_road/rating.hpp"
#include "linear_road/traffic_generator.hpp"
#include "median_reporter.hpp"

namespace {

using namespace cwf;

std::string g_input;  // empty: generated

const std::string& generated_input() {
  static const std::string path = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::filesystem::path dir = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") / "cwf_bench_lr";
    std::filesystem::create_directories(dir);
    std::string file = (dir / "input.dat").string();
    if (std::filesystem::exists(file)) return file;  // deterministic per seed: made once
    lr::TrafficOptions options;
    options.xways = 1;
    options.minutes = 60;
    options.seed = 1;
    std::string partial = file + ".partial";
    lr::CsvFileWriter out(partial);
    lr::TrafficGenerator generator(options);
    generator.run([&](const lr::InputRecord& record) { out.line(record); });
    if (!out.close()) {
      std::fprintf(stderr, "lr_throughput: cannot write %s\n", partial.c_str());
      std::exit(1);
    }
    std::filesystem::rename(partial, file);
    return file;
  }();
  return path;
}

struct Variant {
  const char* name;
  const char* director;
  const char* scheduler;
  unsigned workers;
  int xways = 1;                              // L: the input replicated for L expressways
  const char* workflow = "linear_road.yaml";  // in workflows/
  bool affinity = true;                       // fifo's: workers prefer their own replicas
  bool adapt = true;                          // the director's adapt_workers
};

void BM_LinearRoad(benchmark::State& state, Variant variant) {
  lr::RatingOptions options;
  options.input = g_input.empty() ? generated_input() : g_input;
  options.workflow = std::string(CWF_SOURCE_DIR) + "/workflows/" + variant.workflow;
  options.compression = 0;
  options.director = variant.director;
  options.scheduler = variant.scheduler;
  options.workers = variant.workers;
  if (!variant.affinity) options.scheduler_parameters["affinity"] = Value(false);
  options.adapt_workers = variant.adapt;
  options.actors = &cli::actor_registry();
  options.schedulers = &cli::scheduler_registry();
  lr::Rater rater(options);
  double workflow_rate = 0, reference_rate = 0;
  std::uint64_t tuples = 0;
  for (auto _ : state) {
    lr::RatingTrial trial = rater.trial(variant.xways);
    if (!trial.validated()) {
      state.SkipWithError("the workflow's answers differ from the reference's");
      return;
    }
    state.SetIterationTime(trial.seconds);
    workflow_rate = trial.tuples_per_second;
    reference_rate = trial.reference_tuples_per_second;
    tuples += trial.tuples;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(tuples));
  state.counters["reference_per_second"] = reference_rate;
  state.counters["ratio"] = reference_rate > 0 ? workflow_rate / reference_rate : 0;
}

const std::vector<Variant> kVariants = {
    {"fifo_2_workers", "scheduled", "fifo", 2},
    {"fifo_1_worker", "scheduled", "fifo", 1},
    // Two workers that stay two (adapt_workers: false): what the governor chooses against.
    {"fifo_2w_fixed", "scheduled", "fifo", 2, 1, "linear_road.yaml", true, false},
    {"qbs_2_workers", "scheduled", "qbs", 2},
    {"rr_2_workers", "scheduled", "rr", 2},
    {"rb_2_workers", "scheduled", "rb", 2},
    {"threaded", "threaded", "", 0},
    // L = 4: the single chain, and the chain partitioned by expressway (two replicas of each
    // per-expressway stage, workflows/linear_road_partitioned.yaml), on one worker and on two.
    {"L4_chain_1_worker", "scheduled", "fifo", 1, 4},
    {"L4_chain_2_workers", "scheduled", "fifo", 2, 4},
    {"L4_chain_2w_fixed", "scheduled", "fifo", 2, 4, "linear_road.yaml", true, false},
    {"L4_parted_1_worker", "scheduled", "fifo", 1, 4, "linear_road_partitioned.yaml"},
    {"L4_parted_2_workers", "scheduled", "fifo", 2, 4, "linear_road_partitioned.yaml"},
    // The same with the workers taking the first actor in line, wherever its replica last ran.
    {"L4_parted_2w_any", "scheduled", "fifo", 2, 4, "linear_road_partitioned.yaml", false},
    {"L4_parted_2w_fixed", "scheduled", "fifo", 2, 4, "linear_road_partitioned.yaml", true, false},
};

// The one-worker variant of the same workflow and L as `two`, if there is one.
const Variant* one_worker_of(const Variant& two) {
  for (const Variant& v : kVariants)
    if (v.workers == 1 && std::strcmp(v.director, two.director) == 0 &&
        std::strcmp(v.scheduler, two.scheduler) == 0 && v.xways == two.xways &&
        std::strcmp(v.workflow, two.workflow) == 0)
      return &v;
  return nullptr;
}

class RatioReporter final : public cwf_bench::MedianReporter {
 public:
  using MedianReporter::MedianReporter;
  void Finalize() override {
    MedianReporter::Finalize();
    auto& out = GetOutputStream();
    out << "\nMedians of this run; each iteration runs the workflow and then the reference on "
           "the same input, ratio = workflow / reference:\n";
    char line[160];
    std::snprintf(line, sizeof line, "  %-20s %16s %16s %8s\n", "variant", "workflow tuples/s",
                  "reference tuples/s", "ratio");
    out << line;
    auto median_of = [&](const Variant* v) {
      return v ? find(std::string("lr/") + v->name) : nullptr;
    };
    for (const Variant& v : kVariants) {
      const Median* m = median_of(&v);
      if (!m) continue;
      auto counter = [&](const char* name) {
        auto it = m->counters.find(name);
        return it == m->counters.end() ? 0.0 : it->second;
      };
      std::snprintf(line, sizeof line, "  %-20s %16.0f %16.0f %8.2f\n", v.name, m->rate,
                    counter("reference_per_second"), counter("ratio"));
      out << line;
    }
    // The second worker's gain: each variant on two workers over the same workflow and L on
    // one, both medians of this run (the goal is 1.6 at L = 4).
    bool header = false;
    for (const Variant& two : kVariants) {
      if (two.workers != 2) continue;
      const Variant* one = one_worker_of(two);
      const Median* m2 = median_of(&two);
      const Median* m1 = median_of(one);
      if (!m2 || !m1 || m1->rate <= 0) continue;
      if (!header) out << "\nThe second worker, tuples/s on two workers over one:\n";
      header = true;
      std::snprintf(line, sizeof line, "  %-20s / %-20s %6.2f\n", two.name, one->name,
                    m2->rate / m1->rate);
      out << line;
    }
    out.flush();
  }
};

}  // namespace

int main(int argc, char** argv) {
  cwf_bench::Arguments arguments;
  if (!arguments.parse(argc, argv, [](const char* arg) {
        if (std::strncmp(arg, "--input=", 8) != 0) return 0;
        g_input = arg + 8;
        if (!std::filesystem::exists(g_input)) {
          std::fprintf(stderr, "lr_throughput: --input: no such file '%s'\n", g_input.c_str());
          return -1;
        }
        return 1;
      }))
    return 2;
  if (!arguments.initialize_benchmark()) return 1;
  for (const Variant& v : kVariants)
    benchmark::RegisterBenchmark((std::string("lr/") + v.name).c_str(), BM_LinearRoad, v)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(1);
  RatioReporter reporter(arguments.output_options());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
