// The client commands of `cwf serve`: register, list, status, pause, resume, stop, set,
// priority, cancel, remove. Each makes one call of the REST API (docs/server.md) and prints what it
// answered for people.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <ostream>
#include <sstream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "cli/server/http_client.hpp"
#include "cli/server_options.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::cli {

namespace {

const std::map<std::string, std::string> kUsages = {
    {"register",
     "usage: cwf register FILE.yaml [--priority N] [--name NAME] [server options]\n\n"
     "Registers a workflow on a server and starts it. Its relative paths are resolved against\n"
     "the file's folder, on the server's machine. The name is the file's `name:` unless --name\n"
     "gives another. A file that does not load is refused with file:line:column (exit 2).\n"},
    {"list", "usage: cwf list [server options]\n\nLists the server's workflows.\n"},
    {"status",
     "usage: cwf status NAME [server options]\n\nOne workflow: its state and per-actor figures.\n"},
    {"pause",
     "usage: cwf pause NAME [server options]\n\nNo actor of the workflow fires until "
     "it is resumed; queued events wait.\n"},
    {"resume", "usage: cwf resume NAME [server options]\n"},
    {"stop",
     "usage: cwf stop NAME [server options]\n\nStops the workflow's sources and lets "
     "it process what is queued; it stays listed (stopped).\n"},
    {"set",
     "usage: cwf set NAME ACTOR.PARAM=VALUE [server options]\n"
     "       cwf set NAME ACTOR.PORT.window.(size|step|timeout)=VALUE\n"
     "       cwf set NAME director.(scheduler|PARAM)=VALUE\n\n"
     "Changes a parameter of a running workflow where the actor's type allows it (cwf actors\n"
     "says \"changeable while it runs\"), the size, step or timeout of the window on an input\n"
     "port (in the units the file declares), or its scheduling policy: VALUE as it would be\n"
     "written in the file. The actor takes it before its next firing; the server keeps it for\n"
     "its next start.\n"},
    {"priority",
     "usage: cwf priority NAME N [server options]\n\n"
     "Changes a workflow's priority (a whole number, higher is more important) from its next\n"
     "firing on: the server's shared workers go to the waiting workflow of highest priority\n"
     "first (cwf serve --workers). Kept for the server's next start.\n"},
    {"cancel",
     "usage: cwf cancel NAME (--key VALUE | --wave TIME#SEQ) [--actor CANCEL] [server options]\n\n"
     "Cancels a case (CWP4) of a running workflow as its `cancel` actor would (--actor names it\n"
     "when there are several): its events leave the queues and windows of the actor's scope,\n"
     "later ones are dropped there, and the actors in its `retract` list retract their outputs.\n"
     "--key for a cancel actor with `key` (JSON, or else a string: 42, order-7), --wave for one\n"
     "that cancels waves (as `cwf view` shows them).\n"},
    {"remove",
     "usage: cwf remove NAME [server options]\n\nStops the workflow and forgets it "
     "(its checkpoints are deleted).\n"},
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A priority as given on the command line: a whole number in the range of an int.
std::int64_t priority_of(const std::string& text) {
  const double value = parse_number(text, "the priority");
  if (!(value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max()) ||
      value != std::floor(value))
    throw UsageError("the priority must be a whole number (got '" + text + "')");
  return static_cast<std::int64_t>(value);
}

std::string text_of(const Value* value) {
  if (!value || value->is_null()) return "";
  if (value->is_string()) return std::string(value->as_string());
  return value->to_json();
}

std::string uptime(double seconds) {
  char buf[32];
  if (seconds < 120)
    std::snprintf(buf, sizeof buf, "%.0fs", seconds);
  else if (seconds < 7200)
    std::snprintf(buf, sizeof buf, "%.0fm", seconds / 60);
  else
    std::snprintf(buf, sizeof buf, "%.1fh", seconds / 3600);
  return buf;
}

void print_list(const Value& answer, std::ostream& out) {
  const Value* workflows = answer.field("workflows");
  if (!workflows || !workflows->is_array() || workflows->as_array().empty()) {
    out << "no workflows\n";
    return;
  }
  char line[256];
  std::snprintf(line, sizeof line, "%-24s %-9s %8s %8s %12s %9s\n", "NAME", "STATE", "PRIORITY",
                "UPTIME", "EVENTS", "PROBLEMS");
  out << line;
  for (const Value& w : workflows->as_array()) {
    const Value* up = w.field("uptime_seconds");
    std::snprintf(
        line, sizeof line, "%-24s %-9s %8s %8s %12s %9s\n", text_of(w.field("name")).c_str(),
        text_of(w.field("state")).c_str(), text_of(w.field("priority")).c_str(),
        uptime(up && up->is_number() ? up->as_double() : 0).c_str(),
        text_of(w.field("events_from_sources")).c_str(), text_of(w.field("problems")).c_str());
    out << line;
  }
}

void print_status(const Value& answer, std::ostream& out) {
  const Value* workflow = answer.field("workflow");
  if (workflow)
    out << text_of(workflow->field("name")) << ": " << text_of(workflow->field("state"))
        << ", priority " << text_of(workflow->field("priority")) << "\n";
  if (const Value* error = answer.field("error"); error && !error->is_null())
    out << "error: " << text_of(error) << "\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-20s %10s %12s %12s %8s %9s\n", "ACTOR", "FIRINGS", "IN",
                "OUT", "QUEUED", "PROBLEMS");
  out << line;
  if (const Value* actors = answer.field("actors"); actors && actors->is_array())
    for (const Value& a : actors->as_array()) {
      std::snprintf(line, sizeof line, "%-20s %10s %12s %12s %8s %9s\n",
                    text_of(a.field("name")).c_str(), text_of(a.field("firings")).c_str(),
                    text_of(a.field("events_in")).c_str(), text_of(a.field("events_out")).c_str(),
                    text_of(a.field("queued")).c_str(), text_of(a.field("problems")).c_str());
      out << line;
    }
}

}  // namespace

int server_client_command(const std::string& command, const Words& words, std::ostream& out,
                          std::ostream& err) {
  if (wants_help(words)) {
    out << kUsages.at(command) << kServerOptionsHelp;
    return 0;
  }
  const std::string who = "cwf " + command;
  try {
    const bool registering = command == "register";
    std::set<std::string> valued(std::begin(kServerOptionNames), std::end(kServerOptionNames));
    if (registering) valued.insert({"priority", "name"});
    if (command == "cancel") valued.insert({"key", "wave", "actor"});
    Arguments args(words, {}, valued);
    const auto [server, token] = server_options(args);
    const bool needs_name = command != "list";
    const std::size_t expected = command == "list"                             ? 0u
                                 : (command == "set" || command == "priority") ? 2u
                                                                               : 1u;
    if (args.positional().size() != expected)
      throw UsageError(kUsages.at(command).substr(0, kUsages.at(command).find('\n')));
    const std::string name = needs_name ? args.positional()[0] : "";
    ApiResponse answer;
    if (registering) {
      namespace fs = std::filesystem;
      fs::path file(name);
      std::vector<std::pair<std::string_view, Value>> fields = {
          {"yaml", Value(read_file(name))},
          {"file", Value(name)},
          {"base", Value(fs::absolute(file).parent_path().lexically_normal().string())}};
      if (auto priority = args.value("priority"))
        fields.push_back({"priority", Value(priority_of(*priority))});
      if (auto as = args.value("name")) fields.push_back({"name", Value(*as)});
      std::vector<std::string> names;
      std::vector<Value> values;
      for (auto& [key, value] : fields) {
        names.emplace_back(key);
        values.push_back(value);
      }
      answer = http_call(server, "POST", "/api/v1/workflows",
                         Value::record(Schema::intern(names), std::move(values)).to_json(), token);
    } else if (command == "list") {
      answer = http_call(server, "GET", "/api/v1/workflows", "", token);
    } else if (command == "status") {
      answer = http_call(server, "GET", "/api/v1/workflows/" + name, "", token);
    } else if (command == "set") {
      answer = http_call(server, "POST", "/api/v1/workflows/" + name + "/set",
                         Value::record({{"set", Value(args.positional()[1])}}).to_json(), token);
    } else if (command == "priority") {
      answer = http_call(
          server, "POST", "/api/v1/workflows/" + name + "/priority",
          Value::record({{"priority", Value(priority_of(args.positional()[1]))}}).to_json(), token);
    } else if (command == "cancel") {
      std::vector<std::string> names;
      std::vector<Value> values;
      if (auto actor = args.value("actor")) {
        names.push_back("actor");
        values.emplace_back(*actor);
      }
      if (auto key = args.value("key")) {
        Value parsed;
        try {
          parsed = parse_json(*key);
        } catch (const std::exception&) {
          parsed = Value(*key);  // not JSON: the text itself
        }
        names.push_back("key");
        values.push_back(parsed);
      }
      if (auto wave = args.value("wave")) {
        names.push_back("wave");
        values.emplace_back(*wave);
      }
      if (args.value("key").has_value() == args.value("wave").has_value())
        throw UsageError("cwf cancel: give the case as --key VALUE or --wave TIME#SEQ");
      answer = http_call(server, "POST", "/api/v1/workflows/" + name + "/cancel",
                         Value::record(Schema::intern(names), std::move(values)).to_json(), token);
    } else if (command == "remove") {
      answer = http_call(server, "DELETE", "/api/v1/workflows/" + name, "", token);
    } else {
      answer = http_call(server, "POST", "/api/v1/workflows/" + name + "/" + command, "", token);
    }
    Value body;
    try {
      body = parse_json(answer.body);
    } catch (const std::exception&) {
      err << who << ": the server answered " << answer.status << " with no JSON: " << answer.body
          << "\n";
      return kExitFailed;
    }
    if (answer.status >= 400) {
      err << who << ": " << text_of(body.field("error")) << "\n";
      return answer.status == 400 ? kExitUsage : kExitFailed;
    }
    if (command == "list")
      print_list(body, out);
    else if (command == "status")
      print_status(body, out);
    else if (command == "set")
      out << text_of(body.field("name")) << ": " << text_of(body.field("set"))
          << (answer.status == 202 ? " (applied once the workflow runs again)\n" : "\n");
    else if (command == "cancel")
      out << text_of(body.field("name")) << ": " << text_of(body.field("cancelled"))
          << " cancelled\n";
    else if (command == "priority")
      out << text_of(body.field("name")) << ": priority " << text_of(body.field("priority"))
          << "\n";
    else
      out << text_of(body.field("name")) << ": " << text_of(body.field("state")) << "\n";
    return kExitOk;
  } catch (const ServerUnreachable& e) {
    err << who << ": " << e.what() << "; start one with `cwf serve` or name it with --server\n";
    return kExitFailed;
  } catch (const std::exception& e) {
    err << who << ": " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace cwf::cli
