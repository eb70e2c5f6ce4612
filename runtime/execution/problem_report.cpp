#include "runtime/execution/problem_report.hpp"

namespace cwf {

namespace {

std::string what_happened(ProblemKind kind, std::uint64_t count) {
  std::string events = count == 1 ? "an event" : std::to_string(count) + " events";
  switch (kind) {
    case ProblemKind::rejected:
      return "rejected " + events;
    case ProblemKind::failed:
      return "failed on " + events;
    case ProblemKind::dropped:
      return "dropped " + events;
    case ProblemKind::lost:
      return "may have lost " + events;
    case ProblemKind::warning:
      return "warning";
  }
  return "problem";
}

}  // namespace

std::string describe_site(const ProblemSite& site) {
  std::string out;
  if (!site.location.empty()) {
    out += site.location;
    out += ": ";
  }
  out += "actor '";
  out += site.actor;
  out += "'";
  if (!site.type.empty()) {
    out += " (";
    out += site.type;
    out += ")";
  }
  return out;
}

std::string event_excerpt(const Value& token, std::size_t max_chars) {
  std::string text = token.to_json();
  if (text.size() > max_chars) {
    // Cut on a UTF-8 character boundary.
    std::size_t cut = max_chars;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
      --cut;
    text.resize(cut);
    text += "…";
  }
  return text;
}

std::string format_problem(const ProblemSite& site, ProblemKind kind, std::string_view message,
                           const Event* event, const std::optional<std::string>& origin,
                           std::uint64_t count) {
  std::string out = "cwf: " + describe_site(site);
  if (!site.inner.empty()) out += ", in " + site.inner + ",";
  out += ' ';
  out += what_happened(kind, count);
  out += ": ";
  out += message;
  out += '\n';
  if (event && !event->wave.is_punctuation()) {
    out += "    event " + event_excerpt(event->token);
    if (origin) out += " from " + *origin;
    out += '\n';
  } else if (origin) {
    out += "    from " + *origin + '\n';
  }
  return out;
}

}  // namespace cwf
