#include "runtime/execution/input_origin.hpp"

#include <algorithm>

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

}  // namespace cwf
