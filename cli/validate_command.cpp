#include <ostream>

#include "cli/commands.hpp"
#include "cli/load.hpp"
#include "cli/registries.hpp"
#include "runtime/execution/director_factory.hpp"

namespace cwf::cli {

namespace {

const char* kValidateUsage =
    R"usage(usage: cwf validate FILE.yaml [--set ACTOR.PARAM=VALUE ...]

Loads a workflow and checks it without running it: its YAML, actor types and parameters,
connections, windows and director. Prints "FILE.yaml: ok (...)", or the first mistake as
file:line:column and what was expected there. The data is not needed: an input file an actor
cannot read is a warning (the run will need it), not an error.

  --set ACTOR.PARAM=VALUE   set a parameter of an actor of the file, as cwf run does
                            (repeatable; a relative path is relative to the current directory)

Exit status: 0 the workflow loads (warnings aside); 2 it does not, or bad usage.
)usage";

}  // namespace

int validate_command(const Words& words, std::ostream& out, std::ostream& err) {
  if (wants_help(words)) {
    out << kValidateUsage;
    return 0;
  }
  auto arguments = workflow_arguments(words, "validate", err);
  if (!arguments) return 2;
  std::vector<LoadWarning> missing_inputs;
  auto workflow = load_or_report(arguments->path, err, arguments->overrides, &missing_inputs);
  if (!workflow) return 2;
  try {
    make_director(workflow->director(), scheduler_registry());
  } catch (const std::exception& e) {
    err << "cwf: " << arguments->path << ": " << e.what() << "\n";
    return 2;
  }
  for (const LoadWarning& warning : missing_inputs)
    err << "cwf: " << warning.text() << "\n";
  std::size_t sources = 0;
  for (const auto& a : workflow->actors())
    sources += a.actor->is_source();
  out << arguments->path << ": ok (workflow '" << workflow->name() << "', " << workflow->size()
      << " actors, " << sources << " sources, " << workflow->connections().size()
      << " connections, " << workflow->director().type << " director)\n";
  return 0;
}

}  // namespace cwf::cli
