// Peak memory under overload: the fan-out example (workflows/examples/overload/fanout.yaml:
// 300,000 orders split into 20 lines each, in front of a slow map) under every director, policy
// and worker count, with the default bounded queues and with --capacity unbounded, in the same
// run. Each configuration runs `cwf run` as a child process; its peak resident memory comes from
// wait4's rusage. Prints one line per configuration and exits 1 if a bounded run peaked above
// --limit-mb (default 100) or did not print the expected count.
//
// usage: overload_memory [--orders N] [--limit-mb M]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "child_process.hpp"

using cwf::bench::ChildOutcome;
using cwf::bench::run_child;

int main(int argc, char** argv) {
  long orders = 300000, limit_mb = 100;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string option = argv[i];
    if (option == "--orders")
      orders = std::atol(argv[i + 1]);
    else if (option == "--limit-mb")
      limit_mb = std::atol(argv[i + 1]);
  }
  const std::string workflow =
      std::string(CWF_SOURCE_DIR) + "/workflows/examples/overload/fanout.yaml";
  const std::string expected = std::to_string(orders * 20) + "\n";
  const std::vector<std::vector<std::string>> directors = {
      {"--director", "threaded"},
      {"--scheduler", "fifo", "--workers", "1"},
      {"--scheduler", "fifo", "--workers", "2"},
      {"--scheduler", "qbs", "--workers", "1"},
      {"--scheduler", "qbs", "--workers", "2"},
      {"--scheduler", "rr", "--workers", "1"},
      {"--scheduler", "rr", "--workers", "2"},
      {"--scheduler", "rb", "--workers", "1"},
      {"--scheduler", "rb", "--workers", "2"}};
  std::printf("%-28s %14s %10s %16s %10s %8s\n", "director", "bounded MB", "s", "unbounded MB", "s",
              "ratio");
  bool ok = true;
  for (const auto& director : directors) {
    std::string name;
    for (std::size_t i = 1; i < director.size(); i += 2)
      name += (name.empty() ? "" : " ") + director[i];
    ChildOutcome by_capacity[2];
    for (int unbounded = 0; unbounded < 2; ++unbounded) {
      std::vector<std::string> args = {CWF_EXE,
                                       "run",
                                       workflow,
                                       "--set",
                                       "orders.count=" + std::to_string(orders),
                                       "--set",
                                       "last.where=/ == " + std::to_string(orders * 20)};
      args.insert(args.end(), director.begin(), director.end());
      if (unbounded) args.insert(args.end(), {"--capacity", "unbounded"});
      by_capacity[unbounded] = run_child(args);
      if (by_capacity[unbounded].status != 0 || by_capacity[unbounded].out != expected) ok = false;
    }
    const ChildOutcome& bounded = by_capacity[0];
    const ChildOutcome& unbounded = by_capacity[1];
    if (bounded.peak_kb > limit_mb * 1024) ok = false;
    std::printf("%-28s %14.1f %10.2f %16.1f %10.2f %8.2f\n", name.c_str(), bounded.peak_kb / 1024.0,
                bounded.seconds, unbounded.peak_kb / 1024.0, unbounded.seconds,
                static_cast<double>(unbounded.peak_kb) / static_cast<double>(bounded.peak_kb));
    std::fflush(stdout);
  }
  if (!ok)
    std::printf("FAILED: a run did not complete, or a bounded run peaked above %ld MB\n", limit_mb);
  return ok ? 0 : 1;
}
