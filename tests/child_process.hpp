// Child processes in tests, never left to hang a run: a command run to completion with its
// output captured (run_process), and a child running beside the test (ChildProcess). Both put the
// child in a process group of its own; past its time limit the whole group gets SIGKILL and the
// test fails, naming the command and showing what it printed so far.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cwf::testing {

struct ProcessResult {
  int status = -1;  // exit status, or 128 + signal
  std::string out;
  std::string err;
  bool timed_out = false;  // killed at the time limit (the test has failed)
};

// Generous: a limit that only a hung child reaches, even on a slow, loaded machine.
inline constexpr std::chrono::milliseconds kDefaultProcessTimeout = std::chrono::seconds(120);

struct ProcessOptions {
  std::chrono::milliseconds timeout = kDefaultProcessTimeout;
  // > 0: SIGINT to the child after that long (a user's Ctrl-C).
  std::chrono::milliseconds interrupt_after{0};
  // What interrupt_after sends: SIGKILL to the child's process group is a crash.
  int interrupt_signal = SIGINT;
};

namespace detail {

inline std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) {
    if (!line.empty()) line += ' ';
    bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$") == std::string::npos;
    if (plain) {
      line += a;
      continue;
    }
    line += '\'';
    for (char c : a)
      line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

// The end of a long output: what a hung command printed last is what explains it.
inline std::string tail_of(const std::string& text, std::size_t limit = 4000) {
  if (text.empty()) return "(nothing)\n";
  std::string shown =
      text.size() <= limit ? text : "[...]" + text.substr(text.size() - limit, limit);
  if (shown.back() != '\n') shown += '\n';
  return shown;
}

inline std::string seconds(std::chrono::milliseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", static_cast<double>(d.count()) / 1000.0);
  return buf;
}

inline int exit_status(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A null-terminated argv for exec, built before fork: a forked child of a multi-threaded test
// must not allocate.
struct ExecArgs {
  explicit ExecArgs(const std::vector<std::string>& argv) {
    for (const std::string& a : argv)
      pointers.push_back(const_cast<char*>(a.c_str()));
    pointers.push_back(nullptr);
  }
  std::vector<char*> pointers;
};

// In the forked child: its own process group (killed as one), stdin from /dev/null (a test has
// no input to give), then the program, looked up on the PATH like a shell would.
[[noreturn]] inline void exec_child(char* const* args, int out_fd, int err_fd, char* const* envp) {
  setpgid(0, 0);
  int null = open("/dev/null", O_RDONLY);
  if (null >= 0) dup2(null, 0);
  if (out_fd >= 0) dup2(out_fd, 1);
  if (err_fd >= 0) dup2(err_fd, 2);
  if (envp != nullptr)
    execvpe(args[0], args, envp);
  else
    execvp(args[0], args);
  _exit(127);
}

}  // namespace detail

// Runs `argv` (argv[0] looked up on the PATH) to completion and captures its output. Past
// `options.timeout` the child's process group is killed, the result says timed_out, and the test
// fails with the command and its output so far.
inline ProcessResult run_process(const std::vector<std::string>& argv,
                                 const ProcessOptions& options = {}) {
  if (argv.empty()) throw std::invalid_argument("run_process: no command");
  // Close-on-exec: a child started meanwhile by another thread must not keep these pipes open.
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw std::runtime_error("pipe failed");
  }
  detail::ExecArgs args(argv);
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) detail::exec_child(args.pointers.data(), out_pipe[1], err_pipe[1], nullptr);
  setpgid(pid, pid);  // also here: the group exists before the parent may have to kill it
  close(out_pipe[1]);
  close(err_pipe[1]);

  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  const auto deadline = started + options.timeout;
  // Once killed, the pipes close when every process of the group is gone; a process that left
  // the group could hold them open, so draining is bounded too.
  Clock::time_point drain_until = Clock::time_point::max();
  ProcessResult result;
  bool interrupted = false;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    const auto now = Clock::now();
    if (options.interrupt_after.count() > 0 && !interrupted &&
        now - started >= options.interrupt_after) {
      if (options.interrupt_signal == SIGKILL)
        kill(-pid, SIGKILL);
      else
        kill(pid, options.interrupt_signal);
      interrupted = true;
    }
    if (!result.timed_out && now >= deadline) {
      kill(-pid, SIGKILL);
      result.timed_out = true;
      drain_until = now + std::chrono::seconds(10);
    }
    if (now >= drain_until) break;
    if (poll(fds, 2, 20) <= 0) continue;
    for (pollfd& fd : fds) {
      if (fd.fd < 0 || !(fd.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fd.fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(fd.fd);
        fd.fd = -1;
        --open_fds;
      } else {
        (&fd == &fds[0] ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
      }
    }
  }
  for (pollfd& fd : fds)
    if (fd.fd >= 0) close(fd.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = detail::exit_status(status);
  if (result.timed_out)
    ADD_FAILURE() << "timed out after " << detail::seconds(options.timeout)
                  << " and killed: " << detail::command_line(argv) << "\n--- its stdout so far:\n"
                  << detail::tail_of(result.out) << "--- its stderr so far:\n"
                  << detail::tail_of(result.err);
  return result;
}

// A child that runs beside the test (a second site, a server) with the test's stdout and stderr.
// stop() ends it: SIGTERM, then SIGKILL to its process group if it is still there after the grace
// period; the destructor does the same, so that an assertion that returns early leaves no process
// behind.
class ChildProcess {
 public:
  // `extra_env`: NAME=value entries added to the test's environment.
  ChildProcess(std::vector<std::string> argv, const std::vector<std::string>& extra_env = {})
      : argv_(std::move(argv)) {
    if (argv_.empty()) throw std::invalid_argument("ChildProcess: no command");
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e)
      env.emplace_back(*e);
    env.insert(env.end(), extra_env.begin(), extra_env.end());
    std::vector<char*> envp;
    for (std::string& e : env)
      envp.push_back(e.data());
    envp.push_back(nullptr);
    detail::ExecArgs args(argv_);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) detail::exec_child(args.pointers.data(), -1, -1, envp.data());
    setpgid(pid_, pid_);
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess() {
    if (pid_ > 0) stop(std::chrono::seconds(10));
  }

  pid_t pid() const { return pid_; }

  // Asks the child to end (SIGTERM, or `signal`: SIGINT is a user's Ctrl-C) and waits up to
  // `grace` for it; past that, kills its process group and fails the test. The child's exit
  // status (128 + signal when it was killed by one).
  int stop(std::chrono::milliseconds grace = std::chrono::seconds(10), int signal = SIGTERM) {
    if (pid_ <= 0) return status_;
    kill(pid_, signal);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    for (;;) {
      // Not reaped yet (WNOWAIT): while the child is a zombie its group id cannot be reused, so
      // killing the group cannot hit anyone else.
      siginfo_t info{};
      if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          info.si_pid == pid_)
        break;
      if (std::chrono::steady_clock::now() >= deadline) {
        kill(-pid_, SIGKILL);
        ADD_FAILURE() << "did not end within " << detail::seconds(grace)
                      << " of SIGTERM and was killed: " << detail::command_line(argv_);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    status_ = detail::exit_status(status);
    return status_;
  }

 private:
  std::vector<std::string> argv_;
  pid_t pid_ = -1;
  int status_ = -1;
};

}  // namespace cwf::testing
