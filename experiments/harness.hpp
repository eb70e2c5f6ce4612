// Runs an experiment (experiments/experiment_spec.hpp): every configuration, every repetition,
// each in a fresh engine (the workflow loaded anew from its file, a fresh director), sampling the
// run's counters every 100 ms (a sampler thread beside the director) and turning them into one row
// per second of experiment time.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "experiments/breaking_point.hpp"
#include "experiments/experiment_spec.hpp"
#include "runtime/loading/workflow_loader.hpp"

namespace cwf::experiments {

// Second i covers [i, i+1) s of experiment time (0: the run starts).
struct RunSecond {
  int second = 0;
  double input_rate = 0;        // tuples the source emitted
  double output_rate = 0;       // answers that reached the answer sink (all types)
  std::uint64_t responses = 0;  // answers of types 0 and 1 (tolls, alerts) that left
  std::optional<double> response_mean_s, response_p99_s;  // of those answers
  double source_lag_s = 0;  // how far the source is behind its schedule at the end of the second
  // max(response_mean_s, source_lag_s): the breaking-point measure. A source held back by the
  // director releases its tuples late; the lag says by how much, whether or not the source
  // counts responses from the due time. Without answers in the second: the lag if it is above
  // the limit, else none.
  std::optional<double> delay_s;
  std::uint64_t queue_total = 0;
  std::vector<std::uint64_t> queue;  // per actor, at the end of the second
  std::vector<double> cpu;           // per actor: busy time in the second / 1 s (cores)
};

struct RunResult {
  std::string configuration;
  int repetition = 0;  // 1-based
  std::vector<RunSecond> seconds;
  BreakingPoint breaking;
  double response_mean_s = 0, response_p99_s = 0;  // types 0-1 over the measured seconds
  std::uint64_t tuples = 0, answers = 0;           // in the measured seconds
  double wall_s = 0;                               // the whole run, drain included
};

struct ExperimentResult {
  std::string name;
  std::vector<std::string> actors;          // the workflow's actors, in order
  std::vector<std::string> configurations;  // in the file's order
  std::vector<RunResult> runs;
  std::string input;  // the data file the runs read
  double response_limit_s = 5;
};

// Runs everything; data generated (if asked) into `out_dir`/data. Progress lines go to `log`.
// Throws LoadError for names in the experiment that the workflow lacks, std::runtime_error for
// data that cannot be written or read.
ExperimentResult run_experiment(const ExperimentSpec& spec, const LoadContext& context,
                                const std::string& out_dir, std::ostream& log);

// Where the data lives, generated if needed (reused when `dir` already holds it).
std::string prepare_data(const DataSpec& data, const std::string& dir, std::ostream& log);

// results.csv, summary.csv, summary.md, plot data, plot.gp and (when gnuplot is installed)
// response.png and input.png in `out_dir`. Returns the summary table as markdown.
std::string write_results(const ExperimentResult& result, const std::string& out_dir,
                          std::ostream& log);

// The columns of results.csv, in order, for the given actors.
std::vector<std::string> result_columns(const std::vector<std::string>& actors);

}  // namespace cwf::experiments
