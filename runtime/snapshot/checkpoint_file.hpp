// A checkpoint file: a snapshot payload behind a header that says what the file is and lets a
// reader prove the payload is the one that was written.
//
//   offset  size  field
//        0     8  magic "CWFCKPT\0"
//        8     4  format version, little-endian (kCheckpointFormatVersion)
//       12     8  payload length in bytes, little-endian
//       20     4  CRC-32 of the payload, little-endian
//       24     n  payload (the bytes of a SnapshotWriter)
//
// The version covers the header and the payload's encoding (snapshot_format.hpp): a build reads
// only its own version and says which one a file has. A file is written atomically
// (write_checkpoint_file): after a crash the path holds the old file or the complete new one,
// never a mix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/snapshot/snapshot_error.hpp"

namespace cwf {

inline constexpr std::uint32_t kCheckpointFormatVersion = 3;
inline constexpr std::size_t kCheckpointHeaderBytes = 24;

// Why a checkpoint file was refused; a recovering caller reports it and falls back to an older one.
enum class CheckpointProblem {
  unreadable,            // the file could not be opened or read
  unwritable,            // the file could not be written (write_checkpoint_file only)
  not_a_checkpoint,      // the magic is missing
  incompatible_version,  // another format version
  truncated,             // shorter than its header says
  trailing_bytes,        // longer than its header says
  checksum_mismatch,     // the payload is not the one that was written
};

// "checksum mismatch", "truncated", ...: for messages such as "checkpoint 42 is corrupt
// (checksum mismatch)".
std::string_view problem_name(CheckpointProblem problem) noexcept;

// what(): "checkpoint file PATH: PROBLEM (DETAIL)".
class CheckpointFileError : public SnapshotError {
 public:
  CheckpointFileError(CheckpointProblem problem, std::string_view source, std::string detail);
  CheckpointProblem problem() const noexcept { return problem_; }
  // What exactly is wrong, e.g. "written in format version 2, this build reads version 1".
  const std::string& detail() const noexcept { return detail_; }

 private:
  CheckpointProblem problem_;
  std::string detail_;
};

// The file's bytes: the header followed by the payload.
std::vector<std::uint8_t> encode_checkpoint(std::span<const std::uint8_t> payload);

// Checks the header, the length and the checksum of a file's bytes and returns its payload (a
// view into `file`); `source` names the file in the error. Throws CheckpointFileError.
std::span<const std::uint8_t> verify_checkpoint(std::span<const std::uint8_t> file,
                                                std::string_view source);

// Writes the payload as a checkpoint file at `path`, atomically and durably: into a temporary
// file beside it (is_checkpoint_temporary), flushed to disk, renamed over `path`, then the folder
// flushed so that the rename itself survives a crash. Throws CheckpointFileError (unwritable).
void write_checkpoint_file(const std::filesystem::path& path,
                           std::span<const std::uint8_t> payload);

// Reads and verifies the file at `path`; returns its payload. Throws CheckpointFileError.
std::vector<std::uint8_t> read_checkpoint_file(const std::filesystem::path& path);

// Whether a file name is one of write_checkpoint_file's temporary files (left behind only by a
// crash during a write).
bool is_checkpoint_temporary(std::string_view file_name) noexcept;

}  // namespace cwf
