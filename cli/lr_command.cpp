#include <ostream>

#include "cli/commands.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::cli {

namespace {
const char* kLrUsage = R"(usage: cwf lr <command> [arguments]

Linear Road, the stream benchmark (see docs/linear-road.md).

commands:
  run        run the Linear Road workflow (workflows/linear_road.yaml) on an input file
  reference  run the single-threaded reference implementation on an input file
  validate   compare answers with expected answers, per answer type
  generate   generate a dataset (input, historical tolls) by traffic simulation
  rate       the L-rating: replicate the input for L expressways, pace it, check response
             times and answers; --afap: throughput of the workflow and the reference
             (takes minutes: progress goes to standard error)
  help [COMMAND]  this text, or the usage of COMMAND (as cwf lr COMMAND --help)
)";
}  // namespace

int lr_command(const Words& args, std::ostream& out, std::ostream& err) {
  if (args.size() > 1 && args[0] == "help") {
    Words asked(args.begin() + 1, args.end());
    asked.push_back("--help");
    return lr_command(asked, out, err);
  }
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? err : out) << kLrUsage;
    return args.empty() ? 2 : 0;
  }
  Words rest(args.begin() + 1, args.end());
  const std::string& command = args[0];
  // Each subcommand lives in its own cli/lr_<name>_command.cpp.
  if (command == "run") return lr_run_command(rest, out, err);
  if (command == "reference") return lr_reference_command(rest, out, err);
  if (command == "validate") return lr_validate_command(rest, out, err);
  if (command == "generate") return lr_generate_command(rest, out, err);
  if (command == "rate") return lr_rate_command(rest, out, err);
  std::string message = "cwf lr: unknown command '" + command + "'";
  message +=
      did_you_mean_suffix(command, {"run", "reference", "validate", "generate", "rate", "help"});
  err << message << " (cwf lr help lists the commands)\n";
  return 2;
}

}  // namespace cwf::cli
