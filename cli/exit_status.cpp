#include "cli/exit_status.hpp"

#include <limits>

#include "cli/arguments.hpp"

namespace cwf::cli {

LossTolerance LossTolerance::parse(const std::optional<std::string>& text) {
  if (!text) return {};
  if (*text == "all") return {std::numeric_limits<std::uint64_t>::max()};
  std::uint64_t n = 0;
  bool digits = !text->empty() && text->size() <= 19;
  for (char c : *text) {
    if (c < '0' || c > '9') {
      digits = false;
      break;
    }
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (!digits)
    throw UsageError("--max-errors expects a whole number of events or 'all' (got '" + *text +
                     "')");
  return {n};
}

int exit_status_of(const RunSummary& summary, LossTolerance tolerance) {
  return summary.incomplete() > tolerance.accepted ? kExitIncomplete : kExitOk;
}

}  // namespace cwf::cli
