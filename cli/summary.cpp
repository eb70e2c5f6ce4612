#include "cli/summary.hpp"

#include "runtime/time/duration.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace cwf::cli {

namespace {
std::string human_count(std::uint64_t n) {
  char buf[32];
  if (n >= 10'000'000)
    std::snprintf(buf, sizeof buf, "%.1fM", static_cast<double>(n) / 1e6);
  else if (n >= 100'000)
    std::snprintf(buf, sizeof buf, "%.0fk", static_cast<double>(n) / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(n));
  return buf;
}
}  // namespace

void print_summary(const RunSummary& summary, std::ostream& out) {
  std::size_t width = 5;
  for (const auto& a : summary.actors)
    width = std::max(width, a.name.size());
  char line[512];
  std::snprintf(line, sizeof line,
                "%-*s %10s %10s %10s %8s %8s %8s %8s %8s %8s %8s %9s %10s %10s\n",
                static_cast<int>(width), "actor", "firings", "in", "out", "queued", "rejected",
                "failed", "dropped", "late", "lost", "expired", "cancelled", "busy ms", "ns/event");
  out << line;
  auto n = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  for (const auto& a : summary.actors) {
    std::uint64_t handled = std::max(a.events_in, a.events_out);
    double per_event = handled ? static_cast<double>(a.cost_ns) / static_cast<double>(handled) : 0;
    std::snprintf(line, sizeof line,
                  "%-*s %10llu %10llu %10llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu %9llu "
                  "%10.1f %10.0f\n",
                  static_cast<int>(width), a.name.c_str(), n(a.firings), n(a.events_in),
                  n(a.events_out), n(a.queue_length), n(a.rejected), n(a.failed), n(a.dropped),
                  n(a.late), n(a.lost), n(a.expired), n(a.cancelled),
                  static_cast<double>(a.cost_ns) / 1e6, per_event);
    out << line;
  }
  out << summary.director << " director, " << format_duration(summary.wall_time) << " wall time";
  if (!summary.director_note.empty()) out << " (" << summary.director_note << ")";
  out << "\n";
}

void print_problems(const RunSummary& summary, LossTolerance tolerance, std::ostream& out) {
  std::uint64_t incomplete = summary.incomplete(), warnings = summary.warnings();
  if (incomplete == 0 && warnings == 0) return;
  std::size_t name_width = 5, where_width = 11;
  for (const auto& a : summary.actors) {
    if (a.incomplete() == 0 && a.warnings == 0) continue;
    name_width = std::max(name_width, a.name.size());
    where_width = std::max(where_width, a.location.size());
  }
  if (incomplete == 0)
    out << "cwf: the run was complete, with " << warnings << " warning(s):\n";
  else
    out << "cwf: " << incomplete << " event(s) were not processed completely:\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-*s %-*s %9s %9s %9s %9s %9s %9s\n",
                static_cast<int>(name_width), "actor", static_cast<int>(where_width), "declared at",
                "rejected", "failed", "dropped", "late", "lost", "warnings");
  out << line;
  auto n = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  for (const auto& a : summary.actors) {
    if (a.incomplete() == 0 && a.warnings == 0) continue;
    std::snprintf(line, sizeof line, "  %-*s %-*s %9llu %9llu %9llu %9llu %9llu %9llu\n",
                  static_cast<int>(name_width), a.name.c_str(), static_cast<int>(where_width),
                  a.location.empty() ? "-" : a.location.c_str(), n(a.rejected), n(a.failed),
                  n(a.dropped), n(a.late), n(a.lost), n(a.warnings));
    out << line;
  }
  if (incomplete == 0) return;
  if (incomplete <= tolerance.accepted)
    out << "cwf: accepted by --max-errors (" << tolerance.accepted << "): exit status 0\n";
  else
    out << "cwf: exit status 3: the run is incomplete (--max-errors N accepts up to N such "
           "events)\n";
}

void print_progress(const std::vector<ActorSummary>& actors, Duration elapsed, std::ostream& out) {
  std::uint64_t in = 0, out_events = 0, queued = 0, errors = 0;
  for (const auto& a : actors) {
    if (a.is_source) in += a.events_out;
    out_events += a.events_in;
    queued += a.queue_length;
    errors += a.incomplete();
  }
  double seconds = static_cast<double>(elapsed) / 1e9;
  char line[256];
  std::snprintf(
      line, sizeof line, "[%7.1f s] %s events in (%s/s), %s handled, %s queued, %s not processed\n",
      seconds, human_count(in).c_str(),
      human_count(seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(in) / seconds) : 0)
          .c_str(),
      human_count(out_events).c_str(), human_count(queued).c_str(), human_count(errors).c_str());
  out << line << std::flush;
}

}  // namespace cwf::cli
