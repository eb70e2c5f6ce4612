#include "cli/load.hpp"

#include "cli/registries.hpp"
#include "runtime/loading/workflow_loader.hpp"

namespace cwf::cli {

std::string workflow_path(const Arguments& args, const std::string& command) {
  if (args.positional().size() != 1)
    throw UsageError("usage: cwf " + command + " FILE.yaml (cwf " + command + " --help)");
  return args.positional()[0];
}

std::vector<ParamOverride> param_overrides(const Arguments& args) {
  std::vector<ParamOverride> overrides;
  for (const std::string& text : args.values("set")) {
    try {
      overrides.push_back(parse_param_override(text));
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  return overrides;
}

std::optional<WorkflowArguments> workflow_arguments(const std::vector<std::string>& words,
                                                    const std::string& command, std::ostream& err) {
  try {
    Arguments args(words, {}, {"set"});
    return WorkflowArguments{workflow_path(args, command), param_overrides(args)};
  } catch (const std::exception& e) {
    err << "cwf " << command << ": " << e.what() << "\n";
    return std::nullopt;
  }
}

std::unique_ptr<Workflow> load_or_report(const std::string& path, std::ostream& err,
                                         const std::vector<ParamOverride>& overrides,
                                         std::vector<LoadWarning>* missing_inputs) {
  try {
    LoadContext context{actor_registry(), scheduler_registry()};
    context.missing_inputs = missing_inputs;
    return load_workflow_file(path, context, overrides);
  } catch (const std::exception& e) {
    err << "cwf: " << e.what() << "\n";
    return nullptr;
  }
}

}  // namespace cwf::cli
