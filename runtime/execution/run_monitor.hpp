// The parts of a run every director polls: the stop request, the --for deadline, progress, and
// when checkpoints are due.
#pragma once

#include <chrono>

#include "runtime/execution/director.hpp"

namespace cwf {

class RunMonitor {
 public:
  explicit RunMonitor(const RunOptions& options)
      : options_(options),
        started_(std::chrono::steady_clock::now()),
        next_progress_(started_),
        next_checkpoint_(started_) {
    next_progress_ += std::chrono::nanoseconds(options.progress_interval);
    next_checkpoint_ += std::chrono::nanoseconds(options.checkpoint_every);
  }

  // True once, when the run should stop its sources (stop requested or deadline passed).
  bool stop_due() {
    if (stopped_) return false;
    bool requested = options_.stop_requested && options_.stop_requested->load();
    bool deadline = options_.run_for && std::chrono::steady_clock::now() - started_ >=
                                            std::chrono::nanoseconds(*options_.run_for);
    if (requested || deadline) stopped_ = true;
    return stopped_;
  }
  // With run_for: the sources stopped at run_for, and the drain has had the grace period too.
  // The run ends now; what is still queued is counted as dropped.
  bool time_is_up() const {
    return options_.run_for &&
           std::chrono::steady_clock::now() - started_ >=
               std::chrono::nanoseconds(*options_.run_for + options_.finish_grace);
  }
  // Checkpoints (RunOptions::checkpoint_every): true when the next one should begin, i.e. the
  // sources be held. Not after a stop.
  bool checkpoint_due() const {
    return options_.checkpoint_every > 0 && options_.checkpoint && !stopped_ &&
           std::chrono::steady_clock::now() >= next_checkpoint_;
  }
  // A checkpoint began: from now on, whether its drain takes too long; the next one is due one
  // interval after this one ends (checkpoint_ended), so a slow write never stacks them up.
  void checkpoint_began() { drain_began_ = std::chrono::steady_clock::now(); }
  bool drain_too_long() const {
    return std::chrono::steady_clock::now() - drain_began_ >=
           std::chrono::nanoseconds(options_.checkpoint_drain_limit);
  }
  // At the drained point, while no actor fires (the director's lock may be held):
  // RunOptions::checkpoint. What it throws is a checkpoint not taken, never the run's end.
  void write_checkpoint() {
    try {
      options_.checkpoint();
    } catch (...) {
      if (options_.checkpoint_skipped) options_.checkpoint_skipped();
    }
    schedule_next_checkpoint();
  }
  // The drain did not complete in time (`reported`: RunOptions::checkpoint_skipped), or a stop
  // came (not a problem: the run drains and ends).
  void skip_checkpoint(bool reported) {
    if (reported && options_.checkpoint_skipped) options_.checkpoint_skipped();
    schedule_next_checkpoint();
  }
  void progress() {
    if (!options_.progress) return;
    auto now = std::chrono::steady_clock::now();
    if (now < next_progress_) return;
    next_progress_ = now + std::chrono::nanoseconds(options_.progress_interval);
    options_.progress();
  }

 private:
  void schedule_next_checkpoint() {
    next_checkpoint_ =
        std::chrono::steady_clock::now() + std::chrono::nanoseconds(options_.checkpoint_every);
  }

  const RunOptions& options_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point next_progress_;
  std::chrono::steady_clock::time_point next_checkpoint_, drain_began_;
  bool stopped_ = false;
};

}  // namespace cwf
