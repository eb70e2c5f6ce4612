#include "cli/run_checkpoints.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <iomanip>
#include <sstream>

#include "runtime/execution/run_checkpoint.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/time/duration.hpp"

namespace cwf::cli {

const char* const kCheckpointValuedOptions[4] = {"checkpoint-dir", "checkpoint-every",
                                                 "checkpoint-keep", "resume"};

CheckpointOptions CheckpointOptions::parse(const Arguments& args) {
  CheckpointOptions options;
  auto dir = args.value("checkpoint-dir");
  auto resume = args.value("resume");
  if (dir && resume && std::filesystem::path(*dir) != std::filesystem::path(*resume))
    throw UsageError("--resume " + *resume + " writes its checkpoints on into " + *resume +
                     "; --checkpoint-dir " + *dir + " names another folder");
  if (resume) {
    if (!std::filesystem::is_directory(*resume))
      throw UsageError("--resume: no folder '" + *resume + "'");
    options.directory = *resume;
    options.resume = true;
  } else if (dir) {
    if (dir->empty()) throw UsageError("--checkpoint-dir needs a folder");
    options.directory = *dir;
  }
  if (auto every = args.value("checkpoint-every")) {
    if (!options.directory)
      throw UsageError("--checkpoint-every only applies with --checkpoint-dir or --resume");
    std::string reason;
    std::optional<Duration> parsed = try_parse_duration(*every, &reason);
    if (!parsed || *parsed <= 0)
      throw UsageError(
          "--checkpoint-every expects a positive duration such as 10s or 500ms (got '" + *every +
          "')" + (reason.empty() ? "" : ": " + reason));
    options.every = *parsed;
  }
  if (auto keep = args.value("checkpoint-keep")) {
    if (!options.directory)
      throw UsageError("--checkpoint-keep only applies with --checkpoint-dir or --resume");
    double n = parse_number(*keep, "--checkpoint-keep");
    if (!(n >= 1) || n != static_cast<double>(static_cast<std::size_t>(n)))
      throw UsageError("--checkpoint-keep must be a whole number of at least 1 (got '" + *keep +
                       "')");
    options.keep = static_cast<std::size_t>(n);
  }
  return options;
}

RunCheckpoints::RunCheckpoints(const CheckpointOptions& options)
    : store_(*options.directory, options.keep) {}

std::string RunCheckpoints::refusal(const Workflow& workflow) {
  std::vector<std::string> refused = checkpoint_refusals(workflow);
  if (refused.empty()) return "";
  std::string message = "this workflow cannot be checkpointed: ";
  message += refused.size() == 1 ? "actor " : "actors ";
  for (std::size_t i = 0; i < refused.size(); ++i)
    message += (i ? ", " : "") + refused[i];
  message += refused.size() == 1 ? " keeps" : " keep";
  message +=
      " state that a checkpoint cannot hold (docs/architecture.md, \"Checkpoints\", lists the "
      "actor types that can); run it without --checkpoint-dir and --resume";
  return message;
}

std::vector<std::uint64_t> RunCheckpoints::numbers_newest_first() const {
  std::vector<std::uint64_t> numbers = store_.numbers();
  std::reverse(numbers.begin(), numbers.end());
  return numbers;
}

std::optional<CheckpointStore::Checkpoint> RunCheckpoints::load(std::uint64_t number,
                                                                std::ostream& err) const {
  CheckpointStore::Checkpoint candidate{number, store_.path_of(number), {}};
  try {
    candidate.payload = read_checkpoint_file(candidate.path);
  } catch (const CheckpointFileError& e) {
    CheckpointStore::Refused refused{number, candidate.path, e.problem(), e.detail()};
    err << "cwf run: " << describe(refused) << ": " << candidate.path.string()
        << "; trying the one before\n";
    return std::nullopt;
  }
  return candidate;
}

RunCheckpointing RunCheckpoints::hooks(const CheckpointStore::Checkpoint* resume_from,
                                       std::ostream& err) {
  RunCheckpointing hooks;
  if (resume_from)
    hooks.restore = [resume_from](Execution& execution) {
      try {
        restore_run_state(execution, resume_from->payload);
      } catch (const std::exception& e) {
        throw ResumeFailed("checkpoint " + std::to_string(resume_from->number) + " (" +
                           resume_from->path.string() + ") cannot be resumed from: " + e.what());
      }
    };
  hooks.write = [this, &err](Execution& execution) {
    auto started = std::chrono::steady_clock::now();
    try {
      std::vector<std::uint8_t> payload = write_run_state(execution);
      last_number_ = store_.commit(payload);
      last_bytes_ = payload.size();
      ++written_;
      checkpoint_committed(execution);
    } catch (const std::exception& e) {
      // The run goes on: its output is whole, only a crash would now resume from further back.
      // Thrown on, so that the run knows (a suspension then stops the run instead).
      if (failed_++ < 3) err << "cwf run: checkpoint not written: " << e.what() << "\n";
      throw;
    }
    Duration took = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - started)
                        .count();
    total_time_ += took;
    longest_time_ = std::max(longest_time_, took);
  };
  return hooks;
}

void RunCheckpoints::skipped(std::ostream& err) {
  if (skipped_++ < 3)
    err << "cwf run: checkpoint skipped: the workflow did not drain in time (an actor keeps "
           "input it does not take); the next one is tried an interval later\n";
}

void RunCheckpoints::report(std::ostream& err) const {
  err << "checkpoints: " << written_ << " written to " << store_.directory().string();
  if (written_ > 0) {
    std::ostringstream ms;
    ms << std::fixed << std::setprecision(1)
       << static_cast<double>(total_time_) / static_cast<double>(written_) / 1e6
       << " ms on average, " << static_cast<double>(longest_time_) / 1e6 << " ms at most";
    err << " (last: #" << last_number_ << ", " << last_bytes_ << " bytes; " << ms.str() << ")";
  }
  if (failed_ > 0) err << ", " << failed_ << " failed";
  if (skipped_ > 0) err << ", " << skipped_ << " skipped";
  err << "\n";
}

}  // namespace cwf::cli
