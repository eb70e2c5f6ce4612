// The edges that close the cycles of a workflow's graph. Bounded queues on every edge of a cycle
// could deadlock (each actor of the cycle held back by the full queue in front of the next), so
// the queue of one edge per cycle is left unbounded: the back edges of a depth-first search that
// starts from the sources (in the order they were added), then from any actor not reached yet.
// Every cycle contains at least one back edge, so none can close on itself.
#pragma once

#include <vector>

#include "runtime/graph/workflow.hpp"

namespace cwf {

struct CycleEdges {
  std::vector<bool> connections;     // by index in Workflow::connections()
  std::vector<bool> expired_routes;  // by index in Workflow::windows(): its expired_to route
};

CycleEdges find_cycle_edges(const Workflow& workflow);

}  // namespace cwf
