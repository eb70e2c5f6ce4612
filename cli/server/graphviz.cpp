#include "cli/server/graphviz.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace cwf::cli {

namespace {

struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() {
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe for dot");
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  void close_read() {
    if (fds[0] >= 0) close(fds[0]);
    fds[0] = -1;
  }
  void close_write() {
    if (fds[1] >= 0) close(fds[1]);
    fds[1] = -1;
  }
};

std::string read_all(int fd) {
  std::string text;
  std::array<char, 16 * 1024> buffer;
  for (;;) {
    ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buffer.data(), static_cast<std::size_t>(n));
  }
}

}  // namespace

std::string render_svg(const std::string& dot) {
  Pipe in, out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fds[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out.fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fds[1], 2);
  char program[] = "dot";
  char format[] = "-Tsvg";
  char* argv[] = {program, format, nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "dot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw std::runtime_error(std::string("cannot run Graphviz's dot: ") + std::strerror(spawned));
  in.close_read();
  out.close_write();
  err.close_write();
  // Written from a thread while the answer and the complaints are read: no pipe fills up with
  // nobody reading it. (A `dot` that ends early makes the write fail: cwf serve ignores SIGPIPE.)
  std::thread writer([&] {
    std::size_t done = 0;
    while (done < dot.size()) {
      ssize_t n = write(in.fds[1], dot.data() + done, dot.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    in.close_write();
  });
  std::string said;
  std::thread complaints([&] { said = read_all(err.fds[0]); });
  std::string svg = read_all(out.fds[0]);
  complaints.join();
  writer.join();
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("Graphviz's dot failed: " + said);
  return svg;
}

}  // namespace cwf::cli
