// Runs a program (the `cwf` binary) as a child process for the benchmarks that measure whole
// runs: its standard output, wall time, exit status and peak resident memory (wait4's rusage).
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

namespace cwf::bench {

struct ChildOutcome {
  long peak_kb = 0;
  double seconds = 0;
  int status = -1;  // the exit status, or 128 + the signal
  std::string out;  // standard output
};

// args[0] is the program's path. Standard error goes to `stderr_path` when given, else to the
// terminal.
inline ChildOutcome run_child(const std::vector<std::string>& args,
                              const std::string& stderr_path = "") {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) std::exit(1);
  auto started = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    if (!stderr_path.empty()) {
      int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err >= 0) dup2(err, STDERR_FILENO);
    }
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::vector<char*> argv;
    for (const std::string& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  ChildOutcome outcome;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
    outcome.out.append(buffer, static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  outcome.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  outcome.peak_kb = usage.ru_maxrss;
  outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return outcome;
}

}  // namespace cwf::bench
