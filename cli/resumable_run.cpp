#include "cli/resumable_run.hpp"

#include <optional>
#include <stdexcept>

namespace cwf::cli {

RunSummary run_resuming(BuiltRun& run, const std::function<bool(BuiltRun&)>& rebuild,
                        RunCheckpoints* checkpoints, bool resume, RunOptions& options,
                        const std::function<void(const Execution&)>& on_progress,
                        const std::string& what, std::ostream& err,
                        std::atomic<std::uint64_t>* resumed_from) {
  std::vector<std::uint64_t> candidates;
  if (checkpoints && resume) candidates = checkpoints->numbers_newest_first();
  // Newest first; a checkpoint that does not read, verify or fit the workflow is reported and
  // the one before it tried, on a workflow built again.
  for (std::size_t next = 0;;) {
    std::optional<CheckpointStore::Checkpoint> resume_from;
    while (next < candidates.size() && !resume_from)
      resume_from = checkpoints->load(candidates[next++], err);
    if (!candidates.empty() && !resume_from)
      throw std::runtime_error("no checkpoint can be resumed from (see above); nothing was run");
    if (resume_from)
      err << what << ": resuming from checkpoint " << resume_from->number << " ("
          << resume_from->path.string() << ")\n";
    if (resumed_from) *resumed_from = resume_from ? resume_from->number : 0;
    RunCheckpointing hooks;
    if (checkpoints) hooks = checkpoints->hooks(resume_from ? &*resume_from : nullptr, err);
    try {
      return run_workflow(*run.workflow, *run.director, *run.clock, options, on_progress, hooks);
    } catch (const ResumeFailed& e) {
      err << what << ": " << e.what() << "; trying the one before\n";
      if (!rebuild(run)) throw std::runtime_error("the workflow no longer loads");
    }
  }
}

}  // namespace cwf::cli
