// Loading the workflow named on the command line, with the registries of this program.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "runtime/graph/workflow.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/loading/param_overrides.hpp"

namespace cwf::cli {

// The one positional FILE argument; throws UsageError otherwise.
std::string workflow_path(const Arguments& args, const std::string& command);
// The `--set ACTOR.PARAM=VALUE` options (runtime/loading/param_overrides.hpp), in order; throws
// UsageError for one that is not of that form.
std::vector<ParamOverride> param_overrides(const Arguments& args);
// `cwf COMMAND FILE.yaml [--set ACTOR.PARAM=VALUE]...` of the commands that only load a workflow
// (validate, graph): its file and settings, or nullopt after printing the usage error.
struct WorkflowArguments {
  std::string path;
  std::vector<ParamOverride> overrides;
};
std::optional<WorkflowArguments> workflow_arguments(const std::vector<std::string>& words,
                                                    const std::string& command, std::ostream& err);
// Loads and checks the workflow; prints the reason and returns nullptr on failure.
// `overrides`: the `--set` parameters. `missing_inputs` set: the workflow is only checked or
// drawn, and input files its actors cannot read are collected there instead of failing the load.
std::unique_ptr<Workflow> load_or_report(const std::string& path, std::ostream& err,
                                         const std::vector<ParamOverride>& overrides = {},
                                         std::vector<LoadWarning>* missing_inputs = nullptr);

}  // namespace cwf::cli
