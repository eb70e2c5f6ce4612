// Loading the workflow named on the command line, with the registries of this program.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "runtime/param_overrides.hpp"
#include "runtime/workflow.hpp"

namespace cwf::cli {

// The one positional FILE argument; throws UsageError otherwise.
std::string workflow_path(const Arguments& args, const std::string& command);
// Loads and checks the workflow; prints the reason and returns nullptr on failure.
// `overrides`: `--set ACTOR.PARAM=VALUE` parameters (runtime/param_overrides.hpp).
std::unique_ptr<Workflow> load_or_report(const std::string& path, std::ostream& err,
                                         const std::vector<ParamOverride>& overrides = {});
// For a command whose only argument is FILE (no options): loads it and sets `path`; prints the
// usage error ("cwf <command>: ...") or the load error and returns nullptr otherwise.
std::unique_ptr<Workflow> load_file_argument(const std::vector<std::string>& words,
                                             const std::string& command, std::ostream& err,
                                             std::string& path);

}  // namespace cwf::cli
