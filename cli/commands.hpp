// The subcommands of `cwf`. Each takes its arguments (without the subcommand word) and the
// streams to write to, and returns the process exit code, so tests can run them in-process.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace cwf::cli {

using Words = std::vector<std::string>;

int run_command(const Words& args, std::ostream& out, std::ostream& err);
int validate_command(const Words& args, std::ostream& out, std::ostream& err);
int graph_command(const Words& args, std::ostream& out, std::ostream& err);
int actors_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf lr <command>`: Linear Road (dispatches to the lr_*_command functions).
int lr_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf lr run`: the Linear Road workflow over a file (cli/lr_run_command.cpp).
int lr_run_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf lr reference`: the reference implementation over a file (cli/lr_reference_command.cpp).
int lr_reference_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf lr validate`: answers against expected answers, per type (cli/lr_validate_command.cpp).
int lr_validate_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf lr rate`: the L-rating and the throughput against the reference (cli/lr_rate_command.cpp).
int lr_rate_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf lr generate`: a dataset from the traffic simulation (cli/lr_generate_command.cpp).
int lr_generate_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf experiment`: a scheduler experiment, its results and plots (cli/experiment_command.cpp).
int experiment_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf guards`: the guard of every event of a dependency workflow (cli/guards_command.cpp).
int guards_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf history`: query an event history file (cli/history_command.cpp).
int history_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf gsm`: GSM models: their rules and dependency graph (cli/gsm_command.cpp).
int gsm_command(const Words& args, std::ostream& out, std::ostream& err);

// `cwf supply-chain load`: customers and warehouse managers played against the supply chain
// workflow (cli/supply_chain_command.cpp, docs/applications.md).
int supply_chain_command(const Words& args, std::ostream& out, std::ostream& err);

// `cwf deploy`: a workflow over several local processes linked over NATS
// (cli/deploy_command.cpp).
int deploy_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf serve`: the enactment server (cli/serve_command.cpp, docs/server.md).
int serve_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf view NAME FROM->TO`: a live view of a connection on a server (cli/view_command.cpp).
int view_command(const Words& args, std::ostream& out, std::ostream& err);
// `cwf register|list|status|pause|resume|stop|cancel|remove`: the server's client
// (cli/server_client_commands.cpp).
int server_client_command(const std::string& command, const Words& args, std::ostream& out,
                          std::ostream& err);

// Dispatches `cwf <command> ...`; prints usage for help or an unknown command.
int main_command(const Words& argv, std::ostream& out, std::ostream& err);

}  // namespace cwf::cli
