// The state of a whole run as one checkpoint payload, and back: what `cwf run --checkpoint-dir`
// writes at each drained point and `--resume` reads into the workflow rebuilt from its file.
//
//   section "run"            which workflow: every actor's name and type, in order
//   section "clock"          the workflow clock (clock_snapshot.hpp)
//   section "cancellations"  the cases cancelled so far (CaseCancellations)
//   section "actor:<name>"   per actor, in order: its engine state (ActorCell::
//                            snapshot_engine_state), its counters ("stats") and, for an actor
//                            that keeps its own (Actor::Checkpointing::own), "state"
//
// A checkpoint of another workflow (other actors, or the same names with other types) is refused
// as a whole, naming the first difference; so is a workflow with an actor that cannot be
// checkpointed (checkpoint_refusals), before it runs.
//
// A sub-workflow (CompositeActor) keeps the state of its inner run in the same layout, as its
// actor state, without the clock: it shares the clock of the run around it, which holds it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/execution/execution.hpp"

namespace cwf {

// What a payload covers: a whole run, or the run of a sub-workflow inside it.
enum class RunStateScope { run, sub_workflow };

// The actors of the workflow that keep state a checkpoint cannot hold
// (Actor::Checkpointing::unsupported), as "name (type, file:line)"; empty when every one can.
// Inside a sub-workflow they are named through it: "outer/inner (type, file:line)".
std::vector<std::string> checkpoint_refusals(const Workflow& workflow);

// Called at a drained point while no actor fires (RunOptions::checkpoint).
std::vector<std::uint8_t> write_run_state(Execution& execution,
                                          RunStateScope scope = RunStateScope::run);

// After the payload of write_run_state is durable, still while no actor fires: tells the actors
// that keep their own state (Actor::checkpoint_committed).
void checkpoint_committed(Execution& execution);

// Into a freshly initialized execution (ExecutionEnv::resuming set before initialize()), before
// the director starts. Throws SnapshotError when the payload is damaged or of another workflow,
// std::runtime_error when an actor's input or output no longer matches it; the execution is then
// unusable (build the workflow again).
void restore_run_state(Execution& execution, std::span<const std::uint8_t> payload,
                       RunStateScope scope = RunStateScope::run);

}  // namespace cwf
