// Human-readable run statistics: the per-actor table printed at the end of `cwf run --stats`, and
// the one-line progress report of long runs.
#pragma once

#include <ostream>

#include "cli/exit_status.hpp"
#include "runtime/execution/runner.hpp"

namespace cwf::cli {

void print_summary(const RunSummary& summary, std::ostream& out);
// When events were not processed completely (or warnings were counted): the actors concerned,
// where they are declared, what happened to their events, and the exit status that follows.
// Prints nothing for a complete run.
void print_problems(const RunSummary& summary, LossTolerance tolerance, std::ostream& out);
void print_progress(const std::vector<ActorSummary>& actors, Duration elapsed, std::ostream& out);

}  // namespace cwf::cli
