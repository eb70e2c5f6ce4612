#include "cli/exit_status.hpp"

#include <charconv>
#include <limits>

#include "cli/arguments.hpp"

namespace cwf::cli {

LossTolerance LossTolerance::parse(const std::optional<std::string>& text) {
  if (!text) return {};
  if (*text == "all") return {std::numeric_limits<std::uint64_t>::max()};
  std::uint64_t n = 0;
  const char* end = text->data() + text->size();
  auto [stop, error] = std::from_chars(text->data(), end, n);
  if (error != std::errc() || stop != end)
    throw UsageError("--max-errors expects a whole number of events or 'all' (got '" + *text +
                     "')");
  return {n};
}

int exit_status_of(const RunSummary& summary, LossTolerance tolerance) {
  return summary.incomplete() > tolerance.accepted ? kExitIncomplete : kExitOk;
}

}  // namespace cwf::cli
