// Human-readable run statistics: the per-actor table printed at the end of `cwf run --stats`, and
// the one-line progress report of long runs.
#pragma once

#include <ostream>

#include "runtime/runner.hpp"

namespace cwf::cli {

void print_summary(const RunSummary& summary, std::ostream& out);
void print_progress(const std::vector<ActorSummary>& actors, Duration elapsed, std::ostream& out);

}  // namespace cwf::cli
