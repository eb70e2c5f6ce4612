// `cwf view NAME FROM->TO [--where EXPR]`: a live view of one connection of a workflow running on
// a server (CWP5, docs/server.md "Live views"): each matching event as a line of JSON, tagged
// with the actor it came from and its wave, until Ctrl-C, --count lines or the run's end.
#include <ostream>

#include "actors/net/query_string.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "cli/server/http_client.hpp"
#include "cli/server_options.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::cli {

namespace {

const char* kUsage =
    "usage: cwf view NAME FROM->TO [--where EXPR] [--count N] [server options]\n"
    "       cwf view NAME FROM TO ...\n\n"
    "Shows the events flowing on one connection of a running workflow, from now on, one line of\n"
    "JSON each: {actor, port, to, time, wave, value}. FROM and TO are ACTOR or ACTOR.PORT (the\n"
    "port may be left out where one connection fits); quote FROM->TO for the shell. Ends at\n"
    "Ctrl-C, after --count lines, or when the workflow's run ends. The workflow is never slowed\n"
    "down: when this reader falls behind, lines are dropped, said on stderr, and the exit status\n"
    "is 1.\n\n"
    "options:\n"
    "  --where EXPR   only the events whose value matches (docs/expressions.md), e.g. '/speed > "
    "50'\n"
    "  --count N      stop after N lines\n";

std::string trimmed(std::string text) {
  const auto space = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && space(text.back()))
    text.pop_back();
  std::size_t first = 0;
  while (first < text.size() && space(text[first]))
    ++first;
  return text.substr(first);
}

// A field as text: a string as it is, anything else as JSON, "" when missing.
std::string text_of(const Value& record, const char* name) {
  const Value* value = record.is_record() ? record.field(name) : nullptr;
  if (!value || value->is_null()) return "";
  return value->is_string() ? std::string(value->as_string()) : value->to_json();
}

}  // namespace

int view_command(const Words& words, std::ostream& out, std::ostream& err) {
  if (wants_help(words)) {
    out << kUsage << kServerOptionsHelp;
    return kExitOk;
  }
  try {
    std::set<std::string> valued(std::begin(kServerOptionNames), std::end(kServerOptionNames));
    valued.insert({"where", "count"});
    Arguments args(words, {}, valued);
    const auto [server, token] = server_options(args);
    const std::vector<std::string>& positional = args.positional();
    std::string from, to;
    if (positional.size() == 2 && positional[1].find("->") != std::string::npos) {
      const std::size_t arrow = positional[1].find("->");
      from = trimmed(positional[1].substr(0, arrow));
      to = trimmed(positional[1].substr(arrow + 2));
    } else if (positional.size() == 3) {
      from = positional[1];
      to = positional[2];
    } else {
      throw UsageError("usage: cwf view NAME FROM->TO [--where EXPR] [--count N]");
    }
    if (from.empty() || to.empty()) throw UsageError("FROM->TO: both ends are needed");
    std::optional<std::uint64_t> count;
    if (auto n = args.value("count"))
      count = static_cast<std::uint64_t>(parse_number(*n, "--count"));
    const std::string& name = positional[0];
    std::string target = "/api/v1/workflows/" + cwf::net::percent_encode(name) +
                         "/view?from=" + cwf::net::percent_encode(from) +
                         "&to=" + cwf::net::percent_encode(to);
    if (auto where = args.value("where")) target += "&where=" + cwf::net::percent_encode(*where);

    if (count && *count == 0) throw UsageError("--count: at least 1");
    std::uint64_t lines = 0, dropped = 0;
    bool run_ended = false;
    ApiResponse answer = http_events(server, target, token, [&](const ServerEvent& event) {
      if (event.type.empty()) {
        out << event.data << "\n" << std::flush;
        return !count || ++lines < *count;
      }
      Value data;
      try {
        data = parse_json(event.data);
      } catch (const std::exception&) {
        return true;
      }
      if (event.type == "open") {
        err << "cwf view: " << name << ": " << text_of(data, "from") << " -> "
            << text_of(data, "to") << " (Ctrl-C ends)\n";
      } else if (event.type == "dropped") {
        const Value* n = data.field("dropped");
        if (n && n->is_int()) dropped += static_cast<std::uint64_t>(n->as_int());
        err << "cwf view: " << text_of(data, "dropped")
            << " events dropped: this reader is slower than the workflow\n";
      } else if (event.type == "errors") {
        err << "cwf view: the predicate failed on " << text_of(data, "errors")
            << " events (left out)\n";
      } else if (event.type == "end") {
        err << "cwf view: " << name << "'s run ended\n";
        run_ended = true;
      }
      return true;
    });
    if (answer.status != 200) {
      std::string message = answer.body;
      try {
        message = text_of(parse_json(answer.body), "error");
      } catch (const std::exception&) {
      }
      err << "cwf view: " << message << "\n";
      return answer.status == 400 ? kExitUsage : kExitFailed;
    }
    if (!run_ended && (!count || lines < *count)) {
      err << "cwf view: the server closed the view (it is shutting down?)\n";
      return kExitFailed;
    }
    if (dropped > 0) {
      err << "cwf view: " << dropped << " events in all were dropped and not shown\n";
      return kExitFailed;
    }
    return kExitOk;
  } catch (const ServerUnreachable& e) {
    err << "cwf view: " << e.what() << "; start one with `cwf serve` or name it with --server\n";
    return kExitFailed;
  } catch (const std::exception& e) {
    err << "cwf view: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace cwf::cli
