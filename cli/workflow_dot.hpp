// A workflow as a Graphviz dot graph (`cwf graph`, the server's dashboard): sources drawn as
// inverted houses, sinks as houses, sub-workflows as clusters; a connection labelled with its
// ports (where an actor has several) and its window, expired events on dashed edges.
#pragma once

#include <string>

#include "runtime/graph/workflow.hpp"

namespace cwf::cli {

std::string workflow_dot(const Workflow& workflow);

}  // namespace cwf::cli
