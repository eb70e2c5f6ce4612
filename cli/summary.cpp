#include "cli/summary.hpp"

#include "runtime/duration.hpp"

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
  std::snprintf(line, sizeof line, "%-*s %10s %10s %10s %8s %8s %8s %8s %8s %10s %10s\n",
                static_cast<int>(width), "actor", "firings", "in", "out", "queued", "errors",
                "dropped", "late", "expired", "busy ms", "ns/event");
  out << line;
  for (const auto& a : summary.actors) {
    std::uint64_t handled = std::max(a.events_in, a.events_out);
    double per_event = handled ? static_cast<double>(a.cost_ns) / static_cast<double>(handled) : 0;
    std::snprintf(
        line, sizeof line,
        "%-*s %10llu %10llu %10llu %8llu %8llu %8llu %8llu %8llu %10.1f %10.0f\n",
        static_cast<int>(width), a.name.c_str(), static_cast<unsigned long long>(a.firings),
        static_cast<unsigned long long>(a.events_in), static_cast<unsigned long long>(a.events_out),
        static_cast<unsigned long long>(a.queue_length), static_cast<unsigned long long>(a.errors),
        static_cast<unsigned long long>(a.dropped), static_cast<unsigned long long>(a.late),
        static_cast<unsigned long long>(a.expired), static_cast<double>(a.cost_ns) / 1e6,
        per_event);
    out << line;
  }
  out << summary.director << " director, " << format_duration(summary.wall_time) << " wall time\n";
  if (std::uint64_t errors = summary.total_errors())
    out << errors << " input error(s) were counted; the first ones are shown above\n";
  std::uint64_t warnings = 0;
  for (const auto& a : summary.actors)
    warnings += a.warnings;
  if (warnings) out << warnings << " warning(s) were counted; the first ones are shown above\n";
}

void print_progress(const std::vector<ActorSummary>& actors, Duration elapsed, std::ostream& out) {
  std::uint64_t in = 0, out_events = 0, queued = 0, errors = 0;
  for (const auto& a : actors) {
    if (a.is_source) in += a.events_out;
    out_events += a.events_in;
    queued += a.queue_length;
    errors += a.errors;
  }
  double seconds = static_cast<double>(elapsed) / 1e9;
  char line[256];
  std::snprintf(
      line, sizeof line, "[%7.1f s] %s events in (%s/s), %s handled, %s queued, %s errors\n",
      seconds, human_count(in).c_str(),
      human_count(seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(in) / seconds) : 0)
          .c_str(),
      human_count(out_events).c_str(), human_count(queued).c_str(), human_count(errors).c_str());
  out << line << std::flush;
}

}  // namespace cwf::cli
