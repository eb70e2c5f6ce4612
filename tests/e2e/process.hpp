// Running the `cwf` binary in tests: its exit status, standard output and standard error.
#pragma once

#include <string>
#include <vector>

namespace cwf::testing {

struct ProcessResult {
  int status = -1;  // exit status, or 128 + signal
  std::string out;
  std::string err;
};

// Runs `cwf` with the given arguments; with `interrupt_after_ms` > 0 sends SIGINT after that long.
ProcessResult run_cwf(const std::vector<std::string>& args, int interrupt_after_ms = 0);

std::string read_file(const std::string& path);

}  // namespace cwf::testing
