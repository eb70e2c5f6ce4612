// Running the `cwf` binary in tests: its exit status, standard output and standard error.
#pragma once

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

// Every director, scheduling policy and worker count the shipped workflows must give the same
// output under: "threaded", or "scheduled:POLICY:WORKERS".
inline const std::vector<std::string> kEveryDirector = {
    "threaded",        "scheduled:fifo:1", "scheduled:fifo:2", "scheduled:rr:1", "scheduled:rr:2",
    "scheduled:qbs:1", "scheduled:qbs:2",  "scheduled:rb:1",   "scheduled:rb:2"};
// The `cwf run` options choosing `director`: "threaded", "scheduled", "scheduled:POLICY" or
// "scheduled:POLICY:WORKERS".
std::vector<std::string> director_args(const std::string& director);
// A test-name-safe form of a director string.
inline std::string director_label(std::string director) {
  for (char& c : director)
    if (c == ':') c = '_';
  return director;
}

}  // namespace cwf::testing
