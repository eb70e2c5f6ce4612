// Every command and subcommand answers --help and -h with its usage on standard output and exit
// status 0. The commands are read from the help texts themselves (cwf help, cwf lr help, cwf gsm
// help), so a command added there is tested here without being listed twice.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

// The command names of a help text: the first word of each line indented by exactly two spaces
// after the line starting with "commands".
std::vector<std::string> commands_listed(const std::string& help) {
  std::vector<std::string> names;
  bool in_commands = false;
  for (const std::string& line : lines_of(help)) {
    if (line.rfind("commands", 0) == 0) {
      in_commands = true;
      continue;
    }
    if (!in_commands) continue;
    if (line.empty()) break;
    if (line.size() > 2 && line.rfind("  ", 0) == 0 && line[2] != ' ')
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  return names;
}

std::vector<std::vector<std::string>> every_command() {
  std::vector<std::vector<std::string>> commands;
  for (const std::string& name : commands_listed(run_cwf({"help"}).out)) {
    if (name == "help") continue;
    commands.push_back({name});
    if (name != "lr" && name != "gsm") continue;
    for (const std::string& sub : commands_listed(run_cwf({name, "help"}).out))
      if (sub != "help") commands.push_back({name, sub});
  }
  return commands;
}

// Whether `text` has a line starting "usage: cwf COMMAND" followed by a space or the line's end.
bool has_usage(const std::string& text, const std::string& command) {
  for (const std::string& line : lines_of(text)) {
    const std::string prefix = "usage: cwf " + command;
    if (line.rfind(prefix, 0) == 0 && (line.size() == prefix.size() || line[prefix.size()] == ' '))
      return true;
  }
  return false;
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words)
    text += (text.empty() ? "" : " ") + word;
  return text;
}

TEST(Help, TheHelpTextsListEveryCommand) {
  std::set<std::string> listed;
  for (const auto& command : every_command())
    listed.insert(joined(command));
  EXPECT_EQ(listed, (std::set<std::string>{
                        "run",        "deploy",       "validate",     "graph",       "actors",
                        "lr",         "lr run",       "lr reference", "lr validate", "lr generate",
                        "lr rate",    "experiment",   "gsm",          "gsm rules",   "gsm graph",
                        "gsm events", "gsm generate", "guards",       "history",     "serve",
                        "register",   "list",         "status",       "pause",       "resume",
                        "stop",       "remove",       "view",         "cancel",      "set",
                        "priority",   "supply-chain",
                    }));
}

TEST(Help, EveryCommandAnswersHelpWithItsUsage) {
  for (const auto& command : every_command()) {
    // The usage line names the command ("usage: cwf lr run ...").
    const std::string usage = joined(command);
    for (const char* flag : {"--help", "-h"}) {
      std::vector<std::string> args = command;
      args.push_back(flag);
      ProcessResult result = run_cwf(args);
      EXPECT_EQ(result.status, 0) << joined(args) << ": " << result.err;
      EXPECT_EQ(result.err, "") << joined(args);
      EXPECT_TRUE(has_usage(result.out, usage)) << joined(args) << ":\n" << result.out;
    }
    // Also after other arguments (lr and gsm take a COMMAND there), and as `cwf help COMMAND`.
    std::vector<std::string> args = command;
    if (command != std::vector<std::string>{"lr"} && command != std::vector<std::string>{"gsm"}) {
      args.insert(args.end(), {"some.yaml", "--help"});
      ProcessResult after = run_cwf(args);
      EXPECT_EQ(after.status, 0) << joined(args) << ": " << after.err;
      EXPECT_TRUE(has_usage(after.out, usage)) << joined(args);
    }
    args = command;
    args.insert(args.begin(), "help");
    ProcessResult asked = run_cwf(args);
    EXPECT_EQ(asked.status, 0) << joined(args) << ": " << asked.err;
    EXPECT_TRUE(has_usage(asked.out, usage)) << joined(args);
  }
}

}  // namespace
}  // namespace cwf::testing
