// The director options shared by the commands that run a workflow (cwf run, cwf lr run):
// --director, --scheduler, --workers, applied over what the workflow file asks for.
#pragma once

#include "cli/arguments.hpp"
#include "runtime/graph/workflow.hpp"

namespace cwf::cli {

// Throws UsageError for a malformed value, or for options that would be ignored: a scheduling
// policy or a worker count only means something to the scheduled director.
void apply_director_options(const Arguments& args, DirectorConfig& config);

}  // namespace cwf::cli
