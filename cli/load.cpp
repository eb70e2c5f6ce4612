#include "cli/load.hpp"

#include "cli/registries.hpp"
#include "runtime/workflow_loader.hpp"

namespace cwf::cli {

std::string workflow_path(const Arguments& args, const std::string& command) {
  if (args.positional().size() != 1)
    throw UsageError("usage: cwf " + command + " FILE.yaml (see cwf help)");
  return args.positional()[0];
}

std::unique_ptr<Workflow> load_or_report(const std::string& path, std::ostream& err) {
  try {
    return load_workflow_file(path, LoadContext{actor_registry(), scheduler_registry()});
  } catch (const std::exception& e) {
    err << "cwf: " << e.what() << "\n";
    return nullptr;
  }
}

}  // namespace cwf::cli
