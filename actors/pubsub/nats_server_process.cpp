#include "actors/pubsub/nats_server_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

extern char** environ;

namespace cwf::pubsub {

namespace {

bool executable(const std::string& path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}

int connect_loopback(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// The body of a plain HTTP/1.0 GET on the loopback, "" on failure.
std::string http_get(int port, const std::string& path) {
  int fd = connect_loopback(port);
  if (fd < 0) return "";
  std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(fd);
    return "";
  }
  std::string response;
  char buf[16384];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
    response.append(buf, static_cast<std::size_t>(n));
  close(fd);
  std::size_t body = response.find("\r\n\r\n");
  return body == std::string::npos ? "" : response.substr(body + 4);
}

}  // namespace

std::string NatsServerProcess::find_binary() {
  if (const char* env = std::getenv("CWF_NATS_SERVER"); env && executable(env)) return env;
  if (executable("/usr/sbin/nats-server")) return "/usr/sbin/nats-server";
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    std::size_t start = 0;
    while (start <= dirs.size()) {
      std::size_t colon = dirs.find(':', start);
      std::string dir =
          dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!dir.empty() && executable(dir + "/nats-server")) return dir + "/nats-server";
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  return "";
}

int NatsServerProcess::free_port() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket() failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = 0;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    close(fd);
    throw std::runtime_error("cannot find a free port");
  }
  close(fd);
  return ntohs(addr.sin_port);
}

NatsServerProcess::NatsServerProcess(std::chrono::milliseconds timeout, std::string jetstream_store)
    : binary_(find_binary()), jetstream_store_(std::move(jetstream_store)) {
  if (binary_.empty())
    throw std::runtime_error("nats-server is not installed (apt-get install nats-server)");
  // A port found free can be taken by someone else before the server binds it (tests run in
  // parallel): try fresh ports a few times.
  for (int attempt = 1;; ++attempt) {
    port_ = free_port();
    do
      monitor_port_ = free_port();
    while (monitor_port_ == port_);
    try {
      start(timeout);
      return;
    } catch (const std::runtime_error&) {
      if (attempt == 3) throw;
    }
  }
}

NatsServerProcess::~NatsServerProcess() {
  kill();
}

std::string NatsServerProcess::url() const {
  return "nats://127.0.0.1:" + std::to_string(port_);
}

void NatsServerProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

void NatsServerProcess::start(std::chrono::milliseconds timeout) {
  if (pid_ > 0) return;
  std::string port = std::to_string(port_), monitor = std::to_string(monitor_port_);
  std::vector<std::string> args = {binary_, "-a", "127.0.0.1", "-p", port, "-m", monitor};
  if (!jetstream_store_.empty()) args.insert(args.end(), {"-js", "-sd", jetstream_store_});
  std::vector<char*> argv;
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // The server's log is of no use to the caller and would interleave with its output.
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, binary_.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + binary_);
  pid_ = pid;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    int fd = connect_loopback(port_);
    if (fd >= 0) {
      close(fd);
      return;
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error(binary_ + " exited at start (port " + port + " taken?)");
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill();
      throw std::runtime_error(binary_ + " does not accept connections on port " + port);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

int NatsServerProcess::subscriptions(const std::string& subject) const {
  std::string body = http_get(monitor_port_, "/connz?subs=1");
  if (body.empty()) return -1;
  // Each connection lists its subscriptions as JSON strings, written by Go's encoder, which
  // escapes > < & (orders.> is "orders.\u003e"): count the exact subject.
  std::string quoted = "\"";
  for (char c : subject) {
    if (c == '>')
      quoted += "\\u003e";
    else if (c == '<')
      quoted += "\\u003c";
    else if (c == '&')
      quoted += "\\u0026";
    else
      quoted += c;
  }
  quoted += '"';
  int n = 0;
  for (std::size_t at = body.find(quoted); at != std::string::npos; at = body.find(quoted, at + 1))
    ++n;
  return n;
}

bool NatsServerProcess::wait_for_subscriptions(const std::string& subject, int n,
                                               std::chrono::milliseconds timeout) const {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (subscriptions(subject) >= n) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace cwf::pubsub
