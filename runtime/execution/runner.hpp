// Runs a whole workflow: initialize every actor, let the director drive it to the end, wrap up.
#pragma once

#include "runtime/execution/director.hpp"
#include "runtime/graph/workflow.hpp"

namespace cwf {

struct ActorSummary {
  std::string name;
  std::string type;
  std::string location;  // "file:line" of its declaration, when it was loaded from a file
  bool is_source;
  std::uint64_t firings, cost_ns, events_in, events_out, rejected, failed, dropped, lost, warnings,
      late, expired, queue_length;
  // Events of cancelled cases (CWP4) removed or dropped on purpose, and retraction records sent:
  // not problems, so not part of incomplete().
  std::uint64_t cancelled, retractions;
  // Events this actor did not process completely: rejected, failed, dropped, arrived too late
  // for their window, or possibly lost by a sink.
  std::uint64_t incomplete() const { return rejected + failed + dropped + late + lost; }
};

struct RunSummary {
  std::string director;
  std::string director_note;  // Director::how_it_ran
  Duration wall_time = 0;
  std::vector<ActorSummary> actors;
  // The run ended at a checkpoint (RunOptions::suspend_requested), to be resumed from it.
  bool suspended = false;
  // Over every actor: events not processed completely (ActorSummary::incomplete), and warnings.
  std::uint64_t incomplete() const;
  std::uint64_t warnings() const;
};

std::vector<ActorSummary> snapshot(const Execution& execution);

// Checkpoints of a run (runtime/execution/run_checkpoint.hpp).
struct RunCheckpointing {
  // Set: the run resumes from a checkpoint. ActorContext::resuming() is true in initialize();
  // then this restores the run's state, before the director starts.
  std::function<void(Execution&)> restore;
  // Set: called at each checkpoint (RunOptions::checkpoint_every) while no actor fires.
  std::function<void(Execution&)> write;
};

// The caller keeps `workflow`, `director` and `clock` alive for the call.
RunSummary run_workflow(Workflow& workflow, Director& director, Clock& clock,
                        const RunOptions& options = {},
                        const std::function<void(const Execution&)>& on_progress = {},
                        const RunCheckpointing& checkpointing = {});

}  // namespace cwf
