// `cwf deploy FILE.yaml --processes N`: a workflow over N local `cwf run --process K/N`
// processes and a NATS server of its own (docs/workflow-yaml.md, "Processes"), for testing a
// placement on one machine. Each process's standard error comes out line by line behind
// "process K: "; standard output is theirs. A process that fails ends the deployment: the
// others are asked to stop (SIGINT, as Ctrl-C: the sources stop and what is queued drains), asked
// again 2 s later (the second Ctrl-C leaves at once), and killed if they are not gone in 10 s.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "actors/pubsub/nats_server_process.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/exit_status.hpp"

extern char** environ;

namespace cwf::cli {

namespace {

const char* kDeployUsage =
    R"(usage: cwf deploy FILE.yaml [--processes N] [--nats URL] [cwf run options]

Runs the workflow over N processes on this machine (default 2), each `cwf run FILE.yaml
--process K/N`, linked over NATS: a nats-server of its own on a free loopback port, unless
--nats names one. Every other option goes to each `cwf run` as written (--set, --director,
--workers, --stats, --place ACTOR=K, ...). Each process's standard error is shown behind
"process K: ". A process that fails ends the deployment: the others are stopped (SIGINT, a
second one 2 s later, SIGKILL after 10 s).

Exit status: the worst of the processes' (1 if one failed or was killed, else 3 if one lost or
rejected events, else 2 for bad usage, else 0).
)";

struct Child {
  pid_t pid = -1;
  int status = -1;  // exit status, or 128 + signal
  std::thread reader;
};

// Starts `argv` with its standard error into a pipe read by a thread that prefixes each line.
void start(Child& child, const std::vector<std::string>& args, const std::string& prefix,
           std::ostream& err, std::mutex& err_mutex) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot make a pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int rc = posix_spawn(&child.pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (rc != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(rc));
  }
  child.reader = std::thread([fd = pipe_fds[0], prefix, &err, &err_mutex] {
    FILE* in = fdopen(fd, "r");
    char* line = nullptr;
    std::size_t size = 0;
    while (getline(&line, &size, in) > 0) {
      std::lock_guard lock(err_mutex);
      err << prefix << line << std::flush;
    }
    free(line);
    fclose(in);
  });
}

int worst(int a, int b) {
  auto rank = [](int s) {
    if (s == kExitOk) return 0;
    if (s == kExitUsage) return 1;
    if (s == kExitIncomplete) return 2;
    return 3;  // failed, killed
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace

int deploy_command(const Words& words, std::ostream& out, std::ostream& err) {
  if (wants_help(words)) {
    out << kDeployUsage;
    return kExitOk;
  }
  int processes = 2;
  std::optional<std::string> nats;
  Words passed;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    auto value = [&](const std::string& option) -> std::optional<std::string> {
      if (word == option) {
        if (i + 1 >= words.size()) throw UsageError(option + " expects a value");
        return words[++i];
      }
      if (word.rfind(option + "=", 0) == 0) return word.substr(option.size() + 1);
      return std::nullopt;
    };
    try {
      if (auto n = value("--processes")) {
        double count = parse_number(*n, "--processes");
        if (!(count >= 1 && count <= 64) || count != static_cast<int>(count))
          throw UsageError("--processes expects 1 to 64 (got '" + *n + "')");
        processes = static_cast<int>(count);
      } else if (auto url = value("--nats")) {
        nats = *url;
      } else if (word == "--process" || word.rfind("--process=", 0) == 0 || word == "--run-id" ||
                 word.rfind("--run-id=", 0) == 0) {
        throw UsageError(word + " is set by cwf deploy for each process");
      } else {
        passed.push_back(word);
      }
    } catch (const UsageError& e) {
      err << "cwf deploy: " << e.what() << "\n" << kDeployUsage;
      return kExitUsage;
    }
  }
  std::unique_ptr<pubsub::NatsServerProcess> server;
  try {
    if (!nats) {
      server = std::make_unique<pubsub::NatsServerProcess>();
      nats = server->url();
    }
  } catch (const std::exception& e) {
    err << "cwf deploy: cannot start a NATS server: " << e.what() << "\n";
    return kExitFailed;
  }
  const std::string run_id = "deploy" + std::to_string(getpid());
  std::mutex err_mutex;
  std::vector<Child> children(static_cast<std::size_t>(processes));
  auto started = std::chrono::steady_clock::now();
  for (int k = 0; k < processes; ++k) {
    std::vector<std::string> args{"cwf", "run"};
    args.insert(args.end(), passed.begin(), passed.end());
    args.insert(args.end(), {"--process", std::to_string(k) + "/" + std::to_string(processes),
                             "--nats", *nats, "--run-id", run_id});
    try {
      start(children[static_cast<std::size_t>(k)], args, "process " + std::to_string(k) + ": ", err,
            err_mutex);
    } catch (const std::exception& e) {
      err << "cwf deploy: " << e.what() << "\n";
      for (Child& c : children)
        if (c.pid > 0) kill(c.pid, SIGKILL);
      processes = k;
      break;
    }
  }
  // Waits for every process; the first that fails stops the others.
  std::optional<std::chrono::steady_clock::time_point> kill_at;
  bool asked_twice = false;
  for (int left = processes; left > 0;) {
    int raw = 0;
    pid_t pid = waitpid(-1, &raw, kill_at ? WNOHANG : 0);
    if (pid == 0) {  // stopping the others: asked twice (the second leaves at once), then killed
      const auto now = std::chrono::steady_clock::now();
      const int signal = now >= *kill_at ? SIGKILL : SIGINT;
      if (now >= *kill_at || (!asked_twice && now >= *kill_at - std::chrono::seconds(8))) {
        asked_twice = true;
        for (Child& c : children)
          if (c.status < 0 && c.pid > 0) kill(c.pid, signal);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    if (pid < 0) break;
    for (Child& c : children) {
      if (c.pid != pid) continue;
      c.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
      --left;
      if ((c.status == kExitFailed || c.status >= 128) && !kill_at && left > 0) {
        std::lock_guard lock(err_mutex);
        err << "cwf deploy: a process failed (status " << c.status << "); stopping the others\n";
        kill_at = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        for (Child& other : children)
          if (other.status < 0 && other.pid > 0) kill(other.pid, SIGINT);
      }
    }
  }
  int status = kExitOk;
  std::string statuses;
  for (Child& c : children) {
    if (c.reader.joinable()) c.reader.join();
    status = worst(status, c.status < 0 ? kExitFailed : c.status);
    statuses += " " + std::to_string(c.status);
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  err << "cwf deploy: " << processes << " processes, exit statuses" << statuses << ", " << seconds
      << " s\n";
  return status;
}

}  // namespace cwf::cli
