// A director owns the model of computation: it decides when each actor of an Execution fires.
// The same workflow runs under any director to the same output (for a deterministic workflow).
//
// Lifecycle: start() brings up whatever the director needs (threads), run() drives the workflow
// until it is quiescent (every source finished, every queue drained) or a stop drains it, and
// shutdown() releases the resources. A composite actor calls run() once per outer firing.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string_view>

#include "runtime/execution/execution.hpp"
#include "runtime/time/clock.hpp"

namespace cwf {

class Director;
struct WorkerShare;

struct RunOptions {
  // Stop the sources after this much wall time, then drain.
  std::optional<Duration> run_for;
  // With run_for: how long after it the run may still take to process what is queued; then it
  // ends, and what is still queued is counted as dropped. Final flushes at wrap-up get what is
  // left of it, and at least a second.
  Duration finish_grace = 5 * kSecond;
  // Polled by the director; set (e.g. by a SIGINT handler) to stop sources and drain.
  const std::atomic<bool>* stop_requested = nullptr;
  // While set, no actor fires (queued events wait; nothing is lost); cleared, the run goes on.
  // A stop request overrides it so that a stop always drains.
  const std::atomic<bool>* pause_requested = nullptr;
  // Called from the thread running the director every `progress_interval` of wall time.
  std::function<void()> progress;
  Duration progress_interval = 5 * kSecond;
  // At quiescence, declare the end of input (open windows close) and finish what that produces.
  // A composite's per-firing runs leave its inner windows open.
  bool end_input_when_quiescent = true;
  // Checkpoints: every `checkpoint_every` of wall time (0: never), and only once a source has
  // fired since the last one (so that the sources always get their turn), the director holds the
  // sources
  // (ExecutionEnv::hold_sources), lets the rest of the workflow drain (Execution::drained) and
  // calls `checkpoint` on its own thread while no actor fires; then the sources go on. A drain
  // that cannot complete (an actor left with input it will not take) gives the checkpoint up
  // after `checkpoint_drain_limit`, calling `checkpoint_skipped`. A `checkpoint` that throws is a
  // checkpoint not taken (it reports its own failure); the run goes on (a suspension's becomes
  // a stop). None after a stop request.
  Duration checkpoint_every = 0;
  Duration checkpoint_drain_limit = 10 * kSecond;
  std::function<void()> checkpoint;
  std::function<void()> checkpoint_skipped;
  // Set (from any thread) to end the run at a checkpoint instead of draining it (a server
  // shutting down; Flink's stop with savepoint): the director holds the sources at once, lets
  // the rest drain, writes a checkpoint and ends without closing the windows still open, whose
  // events the checkpoint holds. A run resumed from it goes on as if never interrupted. A run
  // without checkpoints, or whose drain or write fails, is stopped instead (stop_requested).
  // ExecutionEnv::suspended tells which happened. Overrides a pause, as a stop does.
  const std::atomic<bool>* suspend_requested = nullptr;
  // Called by run_workflow on its thread with the execution and its director once it is
  // initialized (and restored from a checkpoint) and the director started, and with nullptrs
  // before the execution ends: what reaches into a running workflow from outside (live views,
  // case cancellations, a policy changed) attaches there.
  std::function<void(Execution*, Director*)> on_execution;
  // Workers shared with other workflows (cwf serve's second scheduling level): each firing takes
  // one of them first (SharedWorkers). Null: the director's own workers fire freely. Handed to
  // the director by run_workflow before it starts; a sub-workflow's firings run inside its
  // actor's.
  WorkerShare* worker_share = nullptr;
};

class Director {
 public:
  virtual ~Director() = default;
  virtual std::string_view name() const = 0;
  // After run(): what the run summary says of how it ran, beside the name (empty: nothing).
  virtual std::string how_it_ran() const { return {}; }
  virtual void start(Execution& execution) = 0;
  virtual void run(const RunOptions& options) = 0;
  virtual void shutdown() = 0;
  // After run() returned: the earliest time on the clock a cell waits for (a window deadline, a
  // requested firing), kNever for none. A sub-workflow's director runs only when its actor
  // fires, so the actor asks to be fired then (CompositeActor).
  virtual Timestamp next_timer() { return kNever; }
  // Before start(): each firing takes one of the shared workers first (RunOptions::worker_share).
  void share_workers(WorkerShare* share) { worker_share_ = share; }

 protected:
  WorkerShare* worker_share_ = nullptr;
};

}  // namespace cwf
