// An experiment file (docs/experiments.md): which workflow over which data, paced how, which
// director configurations to compare, for how long and how often. Every mistake is a LoadError
// naming file:line:column and what was expected there, as for workflow files.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/execution/scheduler.hpp"
#include "runtime/graph/workflow.hpp"
#include "runtime/time/clock.hpp"

namespace cwf::experiments {

struct DataSpec {
  // Generated with the Linear Road traffic generator (cwf lr generate) into OUT/data, or read.
  bool generate = true;
  int xways = 1;
  int minutes = 20;
  std::uint64_t seed = 1;
  std::string input;  // absolute, when not generated
  std::string tolls;  // historical tolls for type-3 queries; empty: none loaded (answers 0)
  SourceLocation location;
};

// A value per actor name, with where each was written (checked against the workflow later).
template <class T>
struct PerActor {
  std::map<std::string, T> values;
  std::map<std::string, SourceLocation> locations;
};

struct ConfigurationSpec {
  std::string name;
  DirectorConfig director;
  PerActor<int> priorities;           // on top of the experiment's
  PerActor<Duration> synthetic_cost;  // on top of the experiment's
  SourceLocation location;
};

struct ExperimentSpec {
  std::string file;
  std::string name;
  std::string description;
  std::string workflow;  // absolute path
  SourceLocation workflow_location;
  DataSpec data;
  double compression = 10;  // k: data Time t is released t/k s after the start
  Duration duration = 60 * kSecond;
  int repetitions = 1;
  unsigned workers = 2;  // scheduled director workers unless a configuration says otherwise
  double response_limit_s = 5;
  PerActor<int> priorities;
  PerActor<Duration> synthetic_cost;
  // `set: {input.batch: 64}`: actor parameters for every run, as `cwf run --set` (ACTOR.PARAM).
  std::vector<std::pair<std::string, std::string>> settings;
  std::vector<ConfigurationSpec> configurations;
};

// Reads and checks the file. `quick`: apply the file's `quick:` section (default: one
// repetition and at most 20 s). Scheduler names and parameters are checked against `schedulers`.
ExperimentSpec load_experiment_file(const std::string& path, const SchedulerRegistry& schedulers,
                                    bool quick = false);
ExperimentSpec load_experiment_text(const std::string& text, const std::string& file,
                                    const std::string& base_dir,
                                    const SchedulerRegistry& schedulers, bool quick = false);

}  // namespace cwf::experiments
