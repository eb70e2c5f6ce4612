// `cwf experiment FILE.yaml`: runs a scheduler experiment (experiments/harness.hpp) and writes
// its results, summary and plots (docs/experiments.md).
#include <filesystem>
#include <ostream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/registries.hpp"
#include "experiments/harness.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf::cli {

namespace {

const char* kExperimentUsage =
    R"(usage: cwf experiment FILE.yaml [--out DIR] [--quick]

Runs every configuration of an experiment file (workflows/experiments/*.yaml, format in
docs/experiments.md) in a fresh engine, as often as it asks, over its Linear Road data paced by
its time compression, and writes to DIR (default experiment-results/NAME):
  results.csv    one row per configuration, repetition and second of experiment time
  summary.csv    per configuration: breaking point (response time above the limit for good),
  summary.md       peak input rate, mean and 99th-percentile response time
  response.png   response time against experiment time, one line per configuration
  input.png      input rate against experiment time
  data/          the generated input (reused when the file asks for the same again)

  --out DIR   where the results go
  --quick     one repetition of at most 20 s (or what the file's `quick:` section says)
)";

}  // namespace

int experiment_command(const Words& words, std::ostream& out, std::ostream& err) {
  experiments::ExperimentSpec spec;
  std::string out_dir;
  if (wants_help(words)) {
    out << kExperimentUsage;
    return 0;
  }
  try {
    Arguments args(words, {"quick"}, {"out"});
    if (args.positional().size() != 1)
      throw UsageError(args.positional().empty() ? "expected FILE.yaml"
                                                 : "expected one FILE.yaml, got " +
                                                       std::to_string(args.positional().size()));
    spec = experiments::load_experiment_file(args.positional()[0], scheduler_registry(),
                                             args.flag("quick"));
    out_dir = args.value("out").value_or(
        (std::filesystem::path("experiment-results") / spec.name).string());
  } catch (const UsageError& e) {
    err << "cwf experiment: " << e.what() << " (cwf experiment --help)\n";
    return 2;
  } catch (const LoadError& e) {
    err << "cwf experiment: " << e.what() << "\n";
    return 2;
  }
  // An experiment runs for minutes: say how long before the first run, then one line per run.
  const std::size_t runs = spec.configurations.size() * static_cast<std::size_t>(spec.repetitions);
  const auto seconds = static_cast<long long>(spec.duration / kSecond);
  err << "cwf experiment: " << runs << " runs (" << spec.configurations.size()
      << " configurations x " << spec.repetitions << " repetitions) of " << seconds
      << " s each: about " << static_cast<long long>(runs) * seconds
      << " s, plus generating the data the first time; one line per run follows\n"
      << std::flush;
  try {
    LoadContext context{actor_registry(), scheduler_registry()};
    experiments::ExperimentResult result = experiments::run_experiment(spec, context, out_dir, err);
    std::string table = experiments::write_results(result, out_dir, err);
    out << spec.name << " (" << result.runs.size() << " runs; response time: tolls and alerts, "
        << "breaking point: above " << spec.response_limit_s << " s for good)\n"
        << table << "results in " << out_dir << "\n";
  } catch (const LoadError& e) {
    err << "cwf experiment: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "cwf experiment: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace cwf::cli
