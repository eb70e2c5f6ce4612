// The Prometheus text exposition (format 0.0.4) of the workflows a server hosts: per workflow
// whether it runs, per actor its counters, labelled {workflow, actor}.
#pragma once

#include <string>

#include "cli/server/workflow_catalog.hpp"

namespace cwf::cli {

std::string prometheus_exposition(const WorkflowCatalog& catalog);

}  // namespace cwf::cli
