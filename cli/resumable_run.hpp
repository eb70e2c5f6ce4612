// A workflow run that may take checkpoints and resume from them, as `cwf run` and the workflows
// hosted by `cwf serve` do: resumed from the newest checkpoint that reads, verifies and fits the
// workflow, falling back to the one before (the workflow built again) when one does not.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "cli/run_checkpoints.hpp"
#include "runtime/execution/director.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/graph/workflow.hpp"
#include "runtime/time/clock.hpp"

namespace cwf::cli {

// What one attempt runs: built anew for each checkpoint tried (a failed restore leaves the
// workflow unusable).
struct BuiltRun {
  std::unique_ptr<Workflow> workflow;
  std::unique_ptr<Director> director;
  std::unique_ptr<Clock> clock;
};

// Runs `run` (already built) with `checkpoints` (null: none; `resume`: from its newest usable
// checkpoint, from the beginning when it has none), calling `rebuild` before each further
// attempt; a false return is an error. Reports which checkpoint it resumes from on `err`, as
// `what` ("cwf run"), and sets `resumed_from` (when given) to its number before the run starts.
// Throws std::runtime_error when no checkpoint can be resumed from.
RunSummary run_resuming(BuiltRun& run, const std::function<bool(BuiltRun&)>& rebuild,
                        RunCheckpoints* checkpoints, bool resume, RunOptions& options,
                        const std::function<void(const Execution&)>& on_progress,
                        const std::string& what, std::ostream& err,
                        std::atomic<std::uint64_t>* resumed_from = nullptr);

}  // namespace cwf::cli
