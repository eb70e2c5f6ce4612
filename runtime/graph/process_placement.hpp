// A workflow run over several processes (docs/architecture.md, "Processes"): every process loads
// the same file and runs its part of it. Which process runs which actor is the placement: named
// in the file (`placement:`) or on the command line, else replica r of an actor with parallelism
// runs in process r mod N and every other actor in process 0, so that the replicas of a line
// (replica i feeding replica i) stay together.
//
// A process's part keeps its own actors and the connections between them; a connection into an
// input port of another process goes into a process outlet for that port instead (with the
// partition rule it had, so the sender still picks the replica), and the connections into a
// local port from other processes come out of one process inlet for it. The two are made by a
// ProcessLinkMaker (actors/pubsub/process_link.hpp: over NATS), on one subject per port.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "runtime/graph/workflow.hpp"

namespace cwf {

struct ProcessPlacement {
  int processes = 1;
  int process = 0;  // the one this part is for
  // Actor names to processes: an actor with parallelism by its name (all its replicas) or a
  // replica by its own ("tolls[1]"); the command line's entries after the file's.
  std::map<std::string, int> assigned;
};

class ProcessLinkMaker {
 public:
  virtual ~ProcessLinkMaker() = default;
  // The end that sends what reaches it to input port `port` ("actor.port") of another process.
  virtual std::unique_ptr<Actor> outlet(const std::string& subject, const std::string& port) = 0;
  // The end that emits what `senders` send to local input port `port`.
  virtual std::unique_ptr<Actor> inlet(const std::string& subject, const std::string& port,
                                       std::set<std::uint32_t> senders) = 0;
};

// The process that runs `entry` of `workflow` under `placement`.
int process_of(const Workflow& workflow, ActorId actor, const ProcessPlacement& placement);

// The part of `whole` that process `placement.process` runs; the actors it keeps are moved out
// of `whole`. Subjects are `subject_prefix` + ".<actor number>.<port number>". Throws
// WorkflowError for a placement that names no actor of the file or a process out of range, and
// for what does not cross processes yet: a wave window or an expired route behind a link.
std::unique_ptr<Workflow> part_for_process(Workflow& whole, const ProcessPlacement& placement,
                                           ProcessLinkMaker& links,
                                           const std::string& subject_prefix);

}  // namespace cwf
