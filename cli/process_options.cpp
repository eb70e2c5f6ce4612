#include "cli/process_options.hpp"

#include "actors/pubsub/nats_connection.hpp"
#include "actors/pubsub/process_link.hpp"

namespace cwf::cli {

namespace {

int whole_number(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  int n = -1;
  try {
    n = std::stoi(text, &used);
  } catch (const std::exception&) {
  }
  if (used != text.size() || n < 0)
    throw UsageError(what + " expects a whole number (got '" + text + "')");
  return n;
}

}  // namespace

ProcessOptions ProcessOptions::parse(const Arguments& args) {
  ProcessOptions options;
  auto process = args.value("process");
  if (!process) {
    for (const char* option : kProcessValuedOptions)
      if (args.value(option))
        throw UsageError(std::string("--") + option + " only applies with --process K/N");
    return options;
  }
  std::size_t slash = process->find('/');
  if (slash == std::string::npos)
    throw UsageError("--process expects K/N, this process and how many there are (got '" +
                     *process + "')");
  options.process = whole_number(process->substr(0, slash), "--process");
  options.processes = whole_number(process->substr(slash + 1), "--process");
  if (*options.processes < 1 || *options.process >= *options.processes)
    throw UsageError("--process K/N needs 0 <= K < N (got '" + *process + "')");
  if (auto nats = args.value("nats")) options.nats = *nats;
  if (auto run_id = args.value("run-id")) {
    if (!pubsub::valid_subject_token(*run_id))
      throw UsageError(
          "--run-id must be one NATS subject token (no dots, spaces or wildcards), "
          "got '" +
          *run_id + "'");
    options.run_id = *run_id;
  }
  for (const std::string& place : args.values("place")) {
    std::size_t eq = place.rfind('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--place expects ACTOR=PROCESS (got '" + place + "')");
    options.place[place.substr(0, eq)] = whole_number(place.substr(eq + 1), "--place");
  }
  return options;
}

bool ProcessOptions::runs(const Workflow& part, const std::string& actor) {
  for (const ActorEntry& entry : part.actors())
    if (entry.name == actor || (entry.name.rfind(actor + "[", 0) == 0 && entry.name.back() == ']'))
      return true;
  return false;
}

void ProcessOptions::apply(std::unique_ptr<Workflow>& workflow) const {
  if (!enabled()) return;
  ProcessPlacement placement;
  placement.processes = *processes;
  placement.process = *process;
  placement.assigned = workflow->placement();
  for (const auto& [name, at] : place)
    placement.assigned[name] = at;
  pubsub::NatsConnectionOptions connection;
  connection.servers = {nats};
  pubsub::NatsProcessLinks links(connection, static_cast<std::uint32_t>(*process));
  workflow = part_for_process(*workflow, placement, links, "cwf.link." + run_id);
}

}  // namespace cwf::cli
