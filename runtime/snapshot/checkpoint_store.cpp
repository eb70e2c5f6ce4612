#include "runtime/snapshot/checkpoint_store.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <system_error>

namespace cwf {

namespace {

constexpr std::string_view kPrefix = "checkpoint-";
constexpr std::string_view kSuffix = ".cwfckpt";

}  // namespace

CheckpointStore::CheckpointStore(std::filesystem::path directory, std::size_t keep)
    : directory_(std::move(directory)), keep_(std::max<std::size_t>(keep, 1)) {
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error)
    throw CheckpointFileError(CheckpointProblem::unwritable, directory_.string(),
                              "cannot create the directory: " + error.message());
}

void CheckpointStore::set_keep(std::size_t keep) {
  keep_ = std::max<std::size_t>(keep, 1);
}

std::optional<std::uint64_t> CheckpointStore::number_in(std::string_view file_name) noexcept {
  if (!file_name.starts_with(kPrefix) || !file_name.ends_with(kSuffix)) return std::nullopt;
  const std::string_view digits =
      file_name.substr(kPrefix.size(), file_name.size() - kPrefix.size() - kSuffix.size());
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  std::uint64_t number = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return number;
}

std::filesystem::path CheckpointStore::path_of(std::uint64_t number) const {
  char name[64];
  std::snprintf(name, sizeof name, "%s%06llu%s", kPrefix.data(),
                static_cast<unsigned long long>(number), kSuffix.data());
  return directory_ / name;
}

std::vector<std::uint64_t> CheckpointStore::numbers() const {
  std::vector<std::uint64_t> found;
  for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    if (is_checkpoint_temporary(name)) continue;
    if (auto number = number_in(name)) found.push_back(*number);
  }
  std::sort(found.begin(), found.end());
  // "checkpoint-42" and "checkpoint-000042" would be one number twice; the store writes only
  // the second spelling, so only it counts.
  found.erase(std::remove_if(found.begin(), found.end(),
                             [this](std::uint64_t n) {
                               return !std::filesystem::is_regular_file(path_of(n));
                             }),
              found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

std::size_t CheckpointStore::remove_temporaries() const {
  std::size_t removed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(kPrefix) || !is_checkpoint_temporary(name)) continue;
    std::error_code error;
    if (std::filesystem::remove(entry.path(), error)) ++removed;
  }
  return removed;
}

std::uint64_t CheckpointStore::commit(std::span<const std::uint8_t> payload) {
  const std::vector<std::uint64_t> present = numbers();
  const std::uint64_t number = present.empty() ? 1 : present.back() + 1;
  write_checkpoint_file(path_of(number), payload);
  remove_temporaries();
  // Oldest first; the one just written is the last.
  std::vector<std::uint64_t> all = present;
  all.push_back(number);
  if (all.size() > keep_) {
    for (std::size_t i = 0; i < all.size() - keep_; ++i) {
      std::error_code error;
      std::filesystem::remove(path_of(all[i]), error);  // a file already gone is no problem
    }
  }
  return number;
}

CheckpointStore::Recovery CheckpointStore::latest_valid() const {
  Recovery recovery;
  const std::vector<std::uint64_t> present = numbers();
  for (auto it = present.rbegin(); it != present.rend(); ++it) {
    const std::filesystem::path path = path_of(*it);
    try {
      recovery.checkpoint = Checkpoint{*it, path, read_checkpoint_file(path)};
      return recovery;
    } catch (const CheckpointFileError& e) {
      recovery.refused.push_back(Refused{*it, path, e.problem(), e.detail()});
    }
  }
  return recovery;
}

std::string describe(const CheckpointStore::Refused& refused) {
  const std::string number = "checkpoint " + std::to_string(refused.number);
  switch (refused.problem) {
    case CheckpointProblem::unreadable:
    case CheckpointProblem::unwritable:
      return number + " cannot be read (" + refused.detail + ")";
    case CheckpointProblem::incompatible_version:
      return number + " is incompatible (" + refused.detail + ")";
    default:
      return number + " is corrupt (" + std::string(problem_name(refused.problem)) + ")";
  }
}

}  // namespace cwf
