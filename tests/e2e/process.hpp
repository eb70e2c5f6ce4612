// Running the `cwf` binary in tests: its exit status, standard output and standard error.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tests/child_process.hpp"

namespace cwf::testing {

// Runs `cwf` with the given arguments; with `interrupt_after_ms` > 0 sends SIGINT after that long.
// A run still going after kDefaultProcessTimeout is killed and fails the test (run_process).
ProcessResult run_cwf(const std::vector<std::string>& args, int interrupt_after_ms = 0);
// The same with a time limit of the caller's (ProcessOptions).
ProcessResult run_cwf(const std::vector<std::string>& args, const ProcessOptions& options);

std::string read_file(const std::string& path);
std::vector<std::string> lines_of(const std::string& text);

// A shipped workflow and whether its output order is fixed: two branches feeding one sink
// interleave differently on different threads, so such outputs compare as multisets of lines.
struct ShippedWorkflow {
  std::string name;
  bool ordered;
};
inline void PrintTo(const ShippedWorkflow& w, std::ostream* out) {
  *out << w.name;
}

// Runs `workflow` under `director` (and `extra` arguments) and expects exit status 0 and exactly
// the lines of `expected_file`. `director` is "threaded", "scheduled" or "scheduled:POLICY".
void expect_output(const std::string& workflow, const std::string& expected_file,
                   const std::string& director, bool ordered,
                   const std::vector<std::string>& extra = {});

// Every director and scheduling policy the shipped workflows must give the same output under.
inline const std::vector<std::string> kEveryDirector = {"scheduled", "scheduled:qbs",
                                                        "scheduled:rr", "scheduled:rb", "threaded"};
// A test-name-safe form of a director string.
inline std::string director_label(std::string director) {
  for (char& c : director)
    if (c == ':') c = '_';
  return director;
}

}  // namespace cwf::testing
