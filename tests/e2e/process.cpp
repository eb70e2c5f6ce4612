#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cwf::testing {

ProcessResult run_cwf(const std::vector<std::string>& args, int interrupt_after_ms) {
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]);
    close(err_pipe[0]);
    std::vector<char*> argv;
    std::string exe = CWF_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  ProcessResult result;
  auto started = std::chrono::steady_clock::now();
  bool interrupted = false;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    if (interrupt_after_ms > 0 && !interrupted &&
        std::chrono::steady_clock::now() - started >=
            std::chrono::milliseconds(interrupt_after_ms)) {
      kill(pid, SIGINT);
      interrupted = true;
    }
    if (poll(fds, 2, 20) <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      } else {
        (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
      }
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

void expect_output(const std::string& workflow, const std::string& expected_file,
                   const std::string& director, bool ordered,
                   const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run", workflow, "--director", director};
  if (auto colon = director.find(':'); colon != std::string::npos) {
    args[3] = director.substr(0, colon);
    args.insert(args.end(), {"--scheduler", director.substr(colon + 1)});
  }
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessResult result = run_cwf(args);
  ASSERT_EQ(result.status, 0) << result.err;
  std::vector<std::string> actual = lines_of(result.out);
  std::vector<std::string> expected = lines_of(read_file(expected_file));
  ASSERT_FALSE(expected.empty()) << expected_file;
  if (!ordered) {
    std::sort(actual.begin(), actual.end());
    std::sort(expected.begin(), expected.end());
  }
  EXPECT_EQ(actual, expected);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace cwf::testing
