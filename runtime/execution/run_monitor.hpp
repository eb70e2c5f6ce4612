// The parts of a run every director polls: the stop request, the --for deadline, progress, and
// when checkpoints are due.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

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

  // Whether a run with these options has anything to watch: a stop, pause or suspension that
  // may be asked for, a deadline, progress to report or checkpoints to take.
  static bool has_work(const RunOptions& options) {
    return options.run_for || options.stop_requested || options.pause_requested ||
           options.suspend_requested || options.progress || options.checkpoint_every > 0;
  }

  // True once, when the run should stop its sources (stop requested or deadline passed).
  bool stop_due() {
    if (stopped_) return false;
    // A suspension that cannot end at a checkpoint stops the run instead.
    bool requested = (options_.stop_requested && options_.stop_requested->load()) ||
                     (suspend_wanted() && (!options_.checkpoint || suspend_failed_));
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
  // Checkpoints (RunOptions::checkpoint_every), one look per director turn, on the thread that
  // owns the monitor. Not holding: once a checkpoint is due and a source has fired since the
  // last one (so that released sources always get their turn before they are held again), it
  // holds the sources (ExecutionEnv::hold_sources). Holding: `write_if_drained()` writes the
  // checkpoint (write_checkpoint) if the workflow has drained, keeping the actors from firing
  // meanwhile as its director does, and returns whether it did; if not, the checkpoint is given
  // up at a stop (quietly) or after the drain limit (RunOptions::checkpoint_skipped). Returns
  // true when it released the sources: the director wakes those that need it.
  //
  // A suspension (RunOptions::suspend_requested) holds the sources at once; once its checkpoint
  // is written, suspended() is true and the director ends the run, the sources still held.
  template <typename WriteIfDrained>
  bool checkpoint_turn(Execution& execution, WriteIfDrained&& write_if_drained) {
    std::atomic<bool>& hold = execution.env().hold_sources;
    suspending_ = suspend_wanted() && options_.checkpoint && !suspend_failed_;
    const bool suspending = suspending_;
    if (!hold.load(std::memory_order_relaxed)) {
      if (stopped_ || suspended_) return false;
      if (!suspending && (options_.checkpoint_every <= 0 || !options_.checkpoint ||
                          std::chrono::steady_clock::now() < next_checkpoint_ ||
                          execution.source_firings() == source_firings_at_release_))
        return false;
      drain_began_ = std::chrono::steady_clock::now();
      hold.store(true, std::memory_order_relaxed);
      return false;
    }
    if (suspended_) return false;
    write_failed_ = false;
    const bool written = !stopped_ && write_if_drained();
    if (written && suspending && !write_failed_) {
      suspended_ = true;
      execution.env().suspended.store(true);
      return false;
    }
    if (!written) {
      if (!stopped_ && std::chrono::steady_clock::now() - drain_began_ <
                           std::chrono::nanoseconds(options_.checkpoint_drain_limit))
        return false;
      if (!stopped_ && options_.checkpoint_skipped) options_.checkpoint_skipped();
    }
    if (suspending) suspend_failed_ = true;  // the next stop_due() stops the run
    next_checkpoint_ =
        std::chrono::steady_clock::now() + std::chrono::nanoseconds(options_.checkpoint_every);
    source_firings_at_release_ = execution.source_firings();
    hold.store(false, std::memory_order_relaxed);
    return true;
  }
  // For write_if_drained, at the drained point while no actor fires (the director's lock may be
  // held): RunOptions::checkpoint. What it throws is a checkpoint not taken, never the run's end.
  void write_checkpoint() {
    try {
      options_.checkpoint();
    } catch (...) {
      write_failed_ = true;  // reported by the checkpoint function itself
    }
  }
  // For write_if_drained: whether the checkpoint being written is a suspension's (read once per
  // checkpoint_turn, so that the director and the monitor agree on it).
  bool suspending() const { return suspending_; }
  // The last write_checkpoint() failed.
  bool write_failed() const { return write_failed_; }
  // The run's suspension checkpoint is written: the director ends the run now.
  bool suspended() const { return suspended_; }
  // Whether a suspension is asked for: pauses give way to it, as they do to a stop.
  bool suspend_wanted() const {
    return options_.suspend_requested && options_.suspend_requested->load();
  }
  void progress() {
    if (!options_.progress) return;
    auto now = std::chrono::steady_clock::now();
    if (now < next_progress_) return;
    next_progress_ = now + std::chrono::nanoseconds(options_.progress_interval);
    options_.progress();
  }

 private:
  const RunOptions& options_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point next_progress_;
  std::chrono::steady_clock::time_point next_checkpoint_, drain_began_;
  std::uint64_t source_firings_at_release_ = 0;  // Execution::source_firings() then
  bool stopped_ = false;
  bool suspended_ = false, suspend_failed_ = false, write_failed_ = false, suspending_ = false;
};

}  // namespace cwf
