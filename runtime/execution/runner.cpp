#include "runtime/execution/runner.hpp"

#include <chrono>

namespace cwf {

std::uint64_t RunSummary::incomplete() const {
  std::uint64_t n = 0;
  for (const auto& a : actors)
    n += a.incomplete();
  return n;
}

std::uint64_t RunSummary::warnings() const {
  std::uint64_t n = 0;
  for (const auto& a : actors)
    n += a.warnings;
  return n;
}

std::vector<ActorSummary> snapshot(const Execution& execution) {
  std::vector<ActorSummary> out;
  for (ActorId id = 0; id < execution.size(); ++id) {
    const ActorCell& cell = execution.cell(id);
    const ActorStats& s = cell.stats();
    out.push_back({cell.name(), cell.type(), cell.location(), cell.is_source(), s.firings.get(),
                   s.cost_ns.get(), s.events_in.get(), s.events_out.get(), s.rejected.get(),
                   s.failed.get(), s.dropped.get(), s.lost.get(), s.warnings.get(), s.late.get(),
                   s.expired.get(), cell.queue_length(), s.cancelled.get(), s.retractions.get()});
  }
  return out;
}

RunSummary run_workflow(Workflow& workflow, Director& director, Clock& clock,
                        const RunOptions& options,
                        const std::function<void(const Execution&)>& on_progress,
                        const RunCheckpointing& checkpointing) {
  auto started = std::chrono::steady_clock::now();
  Execution execution(workflow, clock);
  if (options.run_for) {
    auto by = started + std::chrono::nanoseconds(*options.run_for + options.finish_grace);
    execution.env().finish_by_ns.store(
        std::chrono::duration_cast<std::chrono::nanoseconds>(by.time_since_epoch()).count());
  }
  RunOptions effective = options;
  if (on_progress) effective.progress = [&] { on_progress(execution); };
  if (checkpointing.write) effective.checkpoint = [&] { checkpointing.write(execution); };
  execution.env().resuming = static_cast<bool>(checkpointing.restore);
  execution.env().takes_checkpoints = static_cast<bool>(checkpointing.write);
  execution.initialize();
  if (checkpointing.restore) checkpointing.restore(execution);
  director.share_workers(options.worker_share);
  director.start(execution);
  if (options.on_execution) options.on_execution(&execution, &director);
  try {
    execution.arm_external_wakes(true);
    execution.wake_sources();
    // Restored deadlines and requested firings reach the director when their cells run once.
    if (checkpointing.restore) execution.wake_all();
    director.run(effective);
  } catch (...) {
    execution.arm_external_wakes(false);
    if (options.on_execution) options.on_execution(nullptr, nullptr);
    director.shutdown();
    throw;
  }
  execution.arm_external_wakes(false);
  if (options.on_execution) options.on_execution(nullptr, nullptr);
  director.shutdown();
  if (execution.env().time_was_up.load())
    for (ActorId id = 0; id < execution.size(); ++id)
      if (std::size_t left = execution.cell(id).queue_length())
        execution.cell(id).report(ProblemKind::dropped,
                                  "still queued when the run's time was up (--for and its grace "
                                  "period)",
                                  nullptr, left);
  execution.wrapup();
  RunSummary summary;
  summary.director = std::string(director.name());
  summary.director_note = director.how_it_ran();
  summary.wall_time = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count();
  summary.actors = snapshot(execution);
  summary.suspended = execution.env().suspended.load();
  return summary;
}

}  // namespace cwf
