// Loads a workflow from its YAML file (the format is documented in docs/workflow-yaml.md):
// actors are created through the ActorRegistry with their parameters checked against the type's
// schema, connections are resolved to ports, and sub-workflows (`workflow: file.yaml`) become
// CompositeActors running under their own director. Every mistake is reported as a LoadError
// naming file:line:column and what was expected there.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/execution/scheduler.hpp"
#include "runtime/graph/workflow.hpp"
#include "runtime/loading/actor_registry.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/loading/param_overrides.hpp"
#include "runtime/loading/yaml_value.hpp"

namespace cwf {

struct LoadContext {
  const ActorRegistry& actors;
  const SchedulerRegistry& schedulers;  // for checking `scheduler:` and sub-workflow directors
  // Null: an input file an actor cannot read is an error (the workflow is to run). Set: the
  // workflow is only checked or drawn, and such files are warnings collected here (`cwf
  // validate` prints them, `cwf graph` does not need them), the actors built without them.
  std::vector<LoadWarning>* missing_inputs = nullptr;
};

// Relative paths in the file (sub-workflows, actor parameters via Params::path) are relative to
// the file's folder; those given in `overrides` to the current directory.
// `overrides` replace or add parameters of the file's own actors (`cwf run --set`); one naming
// no actor of the file, a sub-workflow actor or a parameter the actor's type does not have is a
// LoadError (with a did-you-mean).
std::unique_ptr<Workflow> load_workflow_file(const std::string& path, const LoadContext& context,
                                             const std::vector<ParamOverride>& overrides = {});

// `file_for_errors` names the text in LoadErrors (and gives the default workflow name);
// `base_dir` is the folder relative paths are resolved against ("" for the current one).
std::unique_ptr<Workflow> load_workflow_text(std::string_view yaml,
                                             const std::string& file_for_errors,
                                             const std::string& base_dir,
                                             const LoadContext& context,
                                             const std::vector<ParamOverride>& overrides = {});

}  // namespace cwf
