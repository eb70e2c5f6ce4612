#include "runtime/execution/input_origin.hpp"

#include <algorithm>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

void InputOrigin::set_name(std::string name) {
  std::lock_guard lock(mutex_);
  name_ = std::move(name);
}

void InputOrigin::record(std::uint64_t sequence, std::int64_t offset) {
  std::lock_guard lock(mutex_);
  runs_.push_back({sequence, offset});
  last_offset_ = offset;
}

std::optional<std::string> InputOrigin::describe(std::uint64_t sequence) const {
  std::lock_guard lock(mutex_);
  auto after =
      std::upper_bound(runs_.begin(), runs_.end(), sequence,
                       [](std::uint64_t s, const Run& run) { return s < run.first_sequence; });
  if (after == runs_.begin()) return std::nullopt;
  const Run& run = *(after - 1);
  std::int64_t line = static_cast<std::int64_t>(sequence) + run.offset;
  std::string where = name_.empty() ? "line " : name_ + ":";
  return where + std::to_string(line);
}

void InputOrigin::snapshot(SnapshotWriter& out) const {
  std::lock_guard lock(mutex_);
  out.write_u64(runs_.size());
  for (const Run& run : runs_) {
    out.write_u64(run.first_sequence);
    out.write_i64(run.offset);
  }
}

void InputOrigin::restore(SnapshotReader& in) {
  std::vector<Run> runs;
  const std::size_t n = in.read_count("the input line runs");
  for (std::size_t i = 0; i < n; ++i) {
    Run run;
    run.first_sequence = in.read_u64("a run's first sequence");
    run.offset = in.read_i64("a run's line offset");
    if (!runs.empty() && run.first_sequence <= runs.back().first_sequence)
      in.reject("a run's first sequence", "the runs are not in order");
    runs.push_back(run);
  }
  std::lock_guard lock(mutex_);
  runs_ = std::move(runs);
  last_offset_ = runs_.empty() ? std::numeric_limits<std::int64_t>::min() : runs_.back().offset;
}

}  // namespace cwf
