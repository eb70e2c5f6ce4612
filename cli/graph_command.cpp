#include <ostream>
#include <string>

#include "cli/commands.hpp"
#include "cli/load.hpp"
#include "cli/workflow_dot.hpp"

namespace cwf::cli {

namespace {

const char* kGraphUsage =
    R"(usage: cwf graph FILE.yaml [--set ACTOR.PARAM=VALUE ...]

Prints the workflow as a Graphviz dot graph, e.g. cwf graph f.yaml | dot -Tsvg -o f.svg.
Sources are drawn as inverted houses, sinks as houses, sub-workflows as clusters; a connection
is labelled with its ports (where an actor has several) and its window, and the events expiring
from a window (`expired_to`) follow a dashed edge labelled "expired". The data is not needed:
input files need not exist.

  --set ACTOR.PARAM=VALUE   set a parameter of an actor of the file, as cwf run does
                            (repeatable)

Exit status: 0 drawn; 2 the workflow does not load, or bad usage.
)";

}  // namespace

int graph_command(const Words& words, std::ostream& out, std::ostream& err) {
  if (wants_help(words)) {
    out << kGraphUsage;
    return 0;
  }
  auto arguments = workflow_arguments(words, "graph", err);
  if (!arguments) return 2;
  // A drawing does not read the data: input files that are missing do not matter here.
  std::vector<LoadWarning> missing_inputs;
  auto workflow = load_or_report(arguments->path, err, arguments->overrides, &missing_inputs);
  if (!workflow) return 2;
  out << workflow_dot(*workflow);
  return 0;
}

}  // namespace cwf::cli
