// The exit status of every `cwf` command that runs a workflow or processes user data (README,
// `cwf help`, docs/workflow-yaml.md "Exit status"):
//   0  everything was processed and every sink confirmed its output;
//   1  the run could not start or failed;
//   2  bad usage, or a file that does not load;
//   3  the run completed, but events were rejected, failed, dropped, arrived too late for their
//      window or may have been lost (more of them than --max-errors accepts).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/execution/runner.hpp"

namespace cwf::cli {

enum ExitStatus : int { kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitIncomplete = 3 };

// How many incomplete events a user accepts (--max-errors N | all); 0 by default.
struct LossTolerance {
  std::uint64_t accepted = 0;
  static LossTolerance parse(const std::optional<std::string>& text);  // throws UsageError
};

int exit_status_of(const RunSummary& summary, LossTolerance tolerance);

}  // namespace cwf::cli
