#include <ostream>

#include "cli/commands.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::cli {

namespace {
const char* kUsage = R"(cwf — continuous workflows

usage: cwf <command> [arguments]

commands (each answers --help, or -h, with its usage and options):
  run FILE.yaml       run a workflow until its sources are exhausted (or --for, or Ctrl-C);
                      --set ACTOR.PARAM=VALUE, --director, --scheduler, --workers, --for,
                      --clock, --stats, --line-buffered, ... (cwf run --help)
  deploy FILE.yaml    run a workflow over several local processes linked over NATS
                      (--processes N; cwf deploy --help)
  validate FILE.yaml  load and check a workflow without running it (its data need not exist)
  graph FILE.yaml     print the workflow as a Graphviz dot graph
  actors              list the actor types with their ports and parameters
  lr COMMAND          Linear Road: run, reference, validate, generate, rate (cwf lr help)
  experiment FILE.yaml  compare directors and scheduling policies on Linear Road: response time
                      per second, breaking points, plots (--out DIR, --quick; docs/experiments.md)
  gsm COMMAND         GSM business artifacts: rules, graph of a model (cwf gsm help)
  guards FILE.yaml    print the guard of every event of a dependency workflow
  history FILE        query an event history (--instance ID, --type TYPE)
  supply-chain load   customers and warehouse managers played against the running supply chain
                      workflow, every order checked for its notice (docs/applications.md)
  serve               the enactment server: many workflows, a REST API, /metrics (docs/server.md)
  register FILE.yaml  register a workflow on a server and start it (--server URL, default
                      $CWF_SERVER, else http://127.0.0.1:8420)
  list                the server's workflows with their state
  status NAME         one workflow of the server: state and per-actor figures
  pause NAME          no actor of the workflow fires until it is resumed
  resume NAME         the paused workflow goes on
  stop NAME           stop the workflow's sources and drain it (it stays listed)
  remove NAME         stop the workflow and forget it
  set NAME A.P=VALUE  change a parameter of a running workflow (where the actor allows it)
  priority NAME N     change a workflow's priority on the server's shared workers
  cancel NAME         cancel a case of a running workflow (--key VALUE or --wave TIME#SEQ)
  view NAME FROM->TO  the events flowing on a connection of a running workflow, live
                      (--where EXPR: only those matching)
  help [COMMAND]      this text, or the usage of COMMAND (as cwf COMMAND --help)

standard output into a pipe or a file is written in blocks of 64 KiB, on a terminal as it comes;
cwf run --line-buffered writes every line at once wherever it goes (stdbuf has no effect)

exit status (every command that runs a workflow or reads user data):
  0  everything was processed and every sink confirmed its output
  1  the run could not start or failed (an output that cannot be opened, an internal error)
  2  bad usage, or a file that does not load (file:line:column and the reason on stderr)
  3  the run completed, but events were rejected, failed, dropped, arrived too late for their
     window or may have been lost; stderr lists them per actor with where it is declared
     (--max-errors N accepts up to N of them)
)";
}  // namespace

int main_command(const Words& argv, std::ostream& out, std::ostream& err) {
  if (argv.size() > 1 && argv[0] == "help") {
    Words asked(argv.begin() + 1, argv.end());
    asked.push_back("--help");
    return main_command(asked, out, err);
  }
  if (argv.empty() || argv[0] == "help" || argv[0] == "--help" || argv[0] == "-h") {
    (argv.empty() ? err : out) << kUsage;
    return argv.empty() ? 2 : 0;
  }
  Words rest(argv.begin() + 1, argv.end());
  const std::string& command = argv[0];
  if (command == "run") return run_command(rest, out, err);
  if (command == "deploy") return deploy_command(rest, out, err);
  if (command == "validate") return validate_command(rest, out, err);
  if (command == "graph") return graph_command(rest, out, err);
  if (command == "actors") return actors_command(rest, out, err);
  if (command == "lr") return lr_command(rest, out, err);
  if (command == "experiment") return experiment_command(rest, out, err);
  if (command == "gsm") return gsm_command(rest, out, err);
  if (command == "guards") return guards_command(rest, out, err);
  if (command == "history") return history_command(rest, out, err);
  if (command == "supply-chain") return supply_chain_command(rest, out, err);
  if (command == "serve") return serve_command(rest, out, err);
  if (command == "view") return view_command(rest, out, err);
  for (const char* client : {"register", "list", "status", "pause", "resume", "stop", "set",
                             "priority", "cancel", "remove"})
    if (command == client) return server_client_command(command, rest, out, err);
  std::string message = "cwf: unknown command '" + command + "'";
  message += did_you_mean_suffix(
      command, {"run",        "deploy", "validate", "graph",   "actors", "lr",
                "experiment", "gsm",    "guards",   "history", "serve",  "register",
                "list",       "status", "pause",    "resume",  "stop",   "set",
                "priority",   "cancel", "remove",   "view",    "help",   "supply-chain"});
  err << message << " (cwf help lists the commands)\n";
  return 2;
}

}  // namespace cwf::cli
