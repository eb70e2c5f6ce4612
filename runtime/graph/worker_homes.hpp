// Which worker each actor of a workflow prefers to fire on (affinity), when it runs on several.
//
// Replicas exist so that their keys are worked on side by side: replica r fires on worker
// r mod W, and so does every actor fed only by actors of that replica's line (the stages between
// two repartitioning edges, which the loader connects replica to replica). Events then cross
// cores only where the data must: from a sender to the replica its key picks, and from the
// replicas to where their lines merge. An actor fed by several lines, a source and every actor
// of a workflow without replicas have no home: any worker fires them.
//
// A home is a preference the policy weighs, never a binding: a worker with nothing of its own to
// do fires another's (ScheduledDirector, Scheduler::next_actor_on).
#pragma once

#include <vector>

#include "runtime/graph/workflow.hpp"

namespace cwf {

inline constexpr int kNoHome = -1;

// One entry per actor: its worker (0 .. workers - 1), or kNoHome. All kNoHome on one worker.
std::vector<int> worker_homes(const Workflow& workflow, unsigned workers);

}  // namespace cwf
