#include <cstdint>
#include <exception>
#include <ostream>

#include "actors/eca/history_query.hpp"
#include "actors/eca/occurrence.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"

namespace cwf::cli {

namespace {

const char* kUsage =
    "usage: cwf history FILE [--instance ID] [--type TYPE] [--format json|text]\n"
    "  prints the occurrences of an event history (eca_history) in the order they happened;\n"
    "  --instance and --type select one workflow instance and one occurrence type, e.g.\n"
    "  --type 'RPL(LogClaim.Done)'; --format text prints 'seconds type instance' per line\n";

void print_text(std::ostream& out, const Value& occurrence) {
  // The sign apart from the magnitude: with truncating division -1.5 s would print as -1.500's
  // parts -1 and -500 (or, floored the wrong way, -1.00).
  Timestamp t = eca::occurrence_time(occurrence);
  std::uint64_t magnitude =
      t < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(t) : static_cast<std::uint64_t>(t);
  std::string seconds = (t < 0 ? "-" : "") + std::to_string(magnitude / 1'000'000'000);
  std::string fraction = std::to_string(1'000 + (magnitude % 1'000'000'000) / 1'000'000).substr(1);
  out << seconds << '.' << fraction << ' ' << eca::occurrence_type(occurrence) << ' '
      << eca::field(occurrence, eca::kInstance).to_text() << '\n';
}

}  // namespace

int history_command(const Words& words, std::ostream& out, std::ostream& err) {
  std::string path, format;
  eca::HistoryFilter filter;
  if (wants_help(words)) {
    out << kUsage;
    return 0;
  }
  try {
    Arguments args(words, {}, {"instance", "type", "format"});
    if (args.positional().empty()) throw UsageError("missing the history FILE");
    if (args.positional().size() > 1)
      throw UsageError("unexpected argument '" + args.positional()[1] + "'");
    path = args.positional().front();
    filter.instance = args.value("instance");
    filter.type = args.value("type");
    format = args.value("format").value_or("json");
    if (format != "json" && format != "text")
      throw UsageError("--format expects json or text (got '" + format + "')");
  } catch (const UsageError& e) {
    err << "cwf history: " << e.what() << '\n' << kUsage;
    return 2;
  }
  try {
    for (const Value& occurrence : eca::query_history_file(path, filter)) {
      if (format == "text")
        print_text(out, occurrence);
      else
        out << occurrence.to_json() << '\n';
    }
  } catch (const eca::HistoryError& e) {
    err << "cwf history: " << e.what() << '\n';
    return 1;
  } catch (const std::exception& e) {
    // Anything unforeseen is an error message and exit 1, never an abort.
    err << "cwf history: " << path << ": " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace cwf::cli
