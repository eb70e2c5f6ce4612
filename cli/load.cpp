#include "cli/load.hpp"

#include "cli/registries.hpp"
#include "runtime/workflow_loader.hpp"

namespace cwf::cli {

std::string workflow_path(const Arguments& args, const std::string& command) {
  if (args.positional().size() != 1)
    throw UsageError("usage: cwf " + command + " FILE.yaml (see cwf help)");
  return args.positional()[0];
}

std::unique_ptr<Workflow> load_or_report(const std::string& path, std::ostream& err,
                                         const std::vector<ParamOverride>& overrides) {
  try {
    return load_workflow_file(path, LoadContext{actor_registry(), scheduler_registry()}, overrides);
  } catch (const std::exception& e) {
    err << "cwf: " << e.what() << "\n";
    return nullptr;
  }
}

std::unique_ptr<Workflow> load_file_argument(const std::vector<std::string>& words,
                                             const std::string& command, std::ostream& err,
                                             std::string& path) {
  try {
    path = workflow_path(Arguments(words, {}, {}), command);
  } catch (const std::exception& e) {
    err << "cwf " << command << ": " << e.what() << "\n";
    return nullptr;
  }
  return load_or_report(path, err);
}

}  // namespace cwf::cli
