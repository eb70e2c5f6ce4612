// Command-line arguments of one subcommand: positional words and --options, each option either a
// flag or taking one value ("--for 60s" or "--for=60s"). Unknown options are errors with a
// did-you-mean, so a typo never silently changes a run.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cwf::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether the words ask for a command's usage: `--help` or `-h` anywhere among them.
bool wants_help(const std::vector<std::string>& words);

// The number an option's value gives; UsageError ("--speed expects a number (got 'fast')").
double parse_number(const std::string& text, const char* option);

class Arguments {
 public:
  // `flags` take no value, `valued` take one.
  Arguments(const std::vector<std::string>& words, const std::set<std::string>& flags,
            const std::set<std::string>& valued);

  const std::vector<std::string>& positional() const { return positional_; }
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  // The value of an option; given more than once, the last.
  std::optional<std::string> value(const std::string& name) const;
  // Every value of a repeatable option (--set a --set b), in order.
  std::vector<std::string> values(const std::string& name) const;

 private:
  std::vector<std::string> positional_;
  std::set<std::string> flags_;
  std::map<std::string, std::vector<std::string>> values_;
};

}  // namespace cwf::cli
