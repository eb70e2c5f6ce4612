// The parts of a run every director polls: the stop request, the --for deadline, and progress.
#pragma once

#include <chrono>

#include "runtime/execution/director.hpp"

namespace cwf {

class RunMonitor {
 public:
  explicit RunMonitor(const RunOptions& options)
      : options_(options), started_(std::chrono::steady_clock::now()), next_progress_(started_) {
    next_progress_ += std::chrono::nanoseconds(options.progress_interval);
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
  bool stopped_ = false;
};

}  // namespace cwf
