// Where a source's events came from (a file and its line), so that a run-time error anywhere
// downstream can name the input line that caused it.
//
// Every token a source emits starts a wave whose root sequence numbers the source's tokens
// 1, 2, 3, ... (TimeKeeper). A line-reading source says which line the next token comes from;
// most tokens come from the line after the previous token's, so only the places where that
// stops being true (a header, a skipped or malformed line) are recorded: line = sequence +
// offset, one entry per change of the offset. Recording costs a subtraction and a comparison per
// token; looking up (on the error path only, from any thread) is a binary search under a lock.
#pragma once

#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cwf {

class SnapshotReader;
class SnapshotWriter;

class InputOrigin {
 public:
  // The input's name as the user wrote it (a file path).
  void set_name(std::string name);
  // The token about to get root sequence `sequence` comes from line `line` (source thread only).
  void note(std::uint64_t sequence, std::uint64_t line) {
    std::int64_t offset = static_cast<std::int64_t>(line) - static_cast<std::int64_t>(sequence);
    if (offset == last_offset_) return;
    record(sequence, offset);
  }
  // "name:line" for the token with root sequence `sequence`, when it was noted; any thread.
  std::optional<std::string> describe(std::uint64_t sequence) const;

  // Checkpoints: the recorded runs, so that events of waves started before the checkpoint still
  // name their input line. The name is set again by the source when it starts.
  void snapshot(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  void record(std::uint64_t sequence, std::int64_t offset);

  struct Run {
    std::uint64_t first_sequence;
    std::int64_t offset;
  };
  mutable std::mutex mutex_;
  std::string name_;
  std::vector<Run> runs_;
  // The source thread's copy of the last run's offset, read without the lock; no offset is this
  // low before the first run (line and sequence are both positive).
  std::int64_t last_offset_ = std::numeric_limits<std::int64_t>::min();
};

}  // namespace cwf
