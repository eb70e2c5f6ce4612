// The checkpoints of one workflow, kept in a directory of numbered checkpoint files
// (checkpoint-000042.cwfckpt). commit() adds the next one and removes all but the newest `keep`;
// latest_valid() finds the newest one that reads and verifies, and says why it passed over any
// newer one, so that a recovering run can report "checkpoint 42 is corrupt (checksum mismatch),
// resuming from 41".
//
// One store writes to a directory at a time. Files of other names are left alone; temporary
// files of a write that a crash interrupted are ignored, and removed by the next commit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/snapshot/checkpoint_file.hpp"

namespace cwf {

class CheckpointStore {
 public:
  static constexpr std::size_t kDefaultKeep = 3;

  // Creates the directory if it does not exist.
  explicit CheckpointStore(std::filesystem::path directory, std::size_t keep = kDefaultKeep);

  // How many checkpoints commit() keeps (at least one).
  void set_keep(std::size_t keep);
  std::size_t keep() const noexcept { return keep_; }
  const std::filesystem::path& directory() const noexcept { return directory_; }

  // Writes the payload as the checkpoint after the highest-numbered one present (1 in an empty
  // directory), then removes stale temporary files and all checkpoints but the newest `keep`.
  // Returns the new checkpoint's number. Throws CheckpointFileError when it cannot be written.
  std::uint64_t commit(std::span<const std::uint8_t> payload);

  struct Checkpoint {
    std::uint64_t number = 0;
    std::filesystem::path path;
    std::vector<std::uint8_t> payload;
  };
  // A checkpoint latest_valid() passed over.
  struct Refused {
    std::uint64_t number = 0;
    std::filesystem::path path;
    CheckpointProblem problem = CheckpointProblem::unreadable;
    std::string detail;  // CheckpointFileError::detail()
  };
  struct Recovery {
    std::optional<Checkpoint> checkpoint;  // none: no checkpoint verifies
    std::vector<Refused> refused;          // the newer ones, newest first
  };
  Recovery latest_valid() const;

  // The numbers of the checkpoint files present, oldest first.
  std::vector<std::uint64_t> numbers() const;
  std::filesystem::path path_of(std::uint64_t number) const;
  // Removes the temporary files a crash left behind; returns how many.
  std::size_t remove_temporaries() const;

  // The number in a checkpoint file's name, or nothing for any other name.
  static std::optional<std::uint64_t> number_in(std::string_view file_name) noexcept;

 private:
  std::filesystem::path directory_;
  std::size_t keep_;
};

// One line per refused checkpoint: "checkpoint 42 is corrupt (checksum mismatch)", "checkpoint 42
// is incompatible (written in format version 2, this build reads version 1)", "checkpoint 42
// cannot be read (open: Permission denied)".
std::string describe(const CheckpointStore::Refused& refused);

}  // namespace cwf
