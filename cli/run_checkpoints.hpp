// `cwf run`'s checkpoint options (--checkpoint-dir, --checkpoint-every, --checkpoint-keep,
// --resume) and what a run with them does: refuse a workflow that cannot be checkpointed, pick
// the checkpoint to resume from (falling back past damaged or unusable ones), write checkpoints
// into the store, and say what happened.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/snapshot/checkpoint_store.hpp"

namespace cwf::cli {

struct CheckpointOptions {
  std::optional<std::filesystem::path> directory;  // none: no checkpoints
  Duration every = 10 * kSecond;
  std::size_t keep = CheckpointStore::kDefaultKeep;
  bool resume = false;  // --resume DIR: from DIR's latest usable checkpoint, writing on into DIR

  // From the command line; UsageError for values that make no sense or options without a
  // directory.
  static CheckpointOptions parse(const Arguments& args);
  bool enabled() const { return directory.has_value(); }
};

// The names of the options above, for Arguments.
extern const char* const kCheckpointValuedOptions[4];

// A resumed run's state could not be restored into the workflow (RunCheckpointing::restore):
// the caller builds the workflow again and tries the previous checkpoint.
class ResumeFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RunCheckpoints {
 public:
  // Creates the directory. Throws CheckpointFileError when it cannot.
  explicit RunCheckpoints(const CheckpointOptions& options);

  // The actors that keep a workflow from being checkpointed, as an error message for the user
  // (empty: none).
  static std::string refusal(const Workflow& workflow);

  // The numbers of the checkpoints to try, newest first (none: the run starts from the
  // beginning).
  std::vector<std::uint64_t> numbers_newest_first() const;
  // Checkpoint `number`, read and verified; nothing when it is not (reported on `err`).
  std::optional<CheckpointStore::Checkpoint> load(std::uint64_t number, std::ostream& err) const;

  // What a run attempt passes to run_workflow: restores `resume_from` (when set; failures
  // become ResumeFailed) and writes a checkpoint at each drained point (failures are reported
  // on `err` and the run goes on).
  RunCheckpointing hooks(const CheckpointStore::Checkpoint* resume_from, std::ostream& err);
  // RunOptions::checkpoint_skipped.
  void skipped(std::ostream& err);

  // After the run: how many were written, the last one's number, size and time.
  void report(std::ostream& err) const;

 private:
  CheckpointStore store_;
  std::uint64_t written_ = 0, failed_ = 0, skipped_ = 0;
  std::uint64_t last_number_ = 0, last_bytes_ = 0;
  Duration total_time_ = 0, longest_time_ = 0;
};

}  // namespace cwf::cli
