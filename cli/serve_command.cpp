#include <pthread.h>
#include <signal.h>
#include <csignal>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "cli/server/http_server.hpp"
#include "cli/server/rest_api.hpp"
#include "cli/server/token_file.hpp"
#include "cli/server/workflow_catalog.hpp"
#include "runtime/time/duration.hpp"

namespace cwf::cli {

namespace {

const char* kServeUsage =
    R"(usage: cwf serve [options]

Runs the enactment server: it hosts many workflows at once, keeps their definitions and
checkpoints in its state folder (a server started again with the same folder resumes them) and
answers the REST API under /api/v1 (docs/server.md), /healthz, /readyz and /metrics
(Prometheus). Ctrl-C or SIGTERM stops it: every workflow is stopped, to be resumed next time.

  --listen HOST:PORT   where to listen (default 127.0.0.1:8420; port 0: any free port)
  --state DIR          the state folder (default ./cwf-state)
  --token-file FILE    a file holding the token every request but /healthz and /readyz must
                       carry (Authorization: Bearer TOKEN); required to listen beyond loopback
  --checkpoint-every DURATION
                       how often each workflow that can be checkpointed writes one into the
                       state folder (default 5s)
  --port-file FILE     write the port listened on into FILE once the server answers
  --threads N          threads answering requests (default 2)
  --workers N          how many actors may fire at once over all the workflows (default: one
                       per hardware thread); a free worker goes to the waiting workflow of
                       highest priority (cwf register --priority, cwf priority)
)";

std::atomic<bool> g_signal_seen{false};

std::pair<std::string, std::uint16_t> parse_listen(const std::string& text) {
  std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw UsageError("--listen expects HOST:PORT (got '" + text + "')");
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  double port = parse_number(text.substr(colon + 1), "--listen's port");
  if (port < 0 || port > 65535 || port != static_cast<double>(static_cast<int>(port)))
    throw UsageError("--listen's port must be 0 to 65535 (got '" + text.substr(colon + 1) + "')");
  return {host, static_cast<std::uint16_t>(port)};
}

std::string read_token(const std::string& path) {
  std::string token = read_token_file(path);
  if (token.size() < 16)
    throw UsageError("--token-file: the token in '" + path + "' is shorter than 16 characters");
  return token;
}

}  // namespace

int serve_command(const Words& words, std::ostream& out, std::ostream& err) {
  if (wants_help(words)) {
    out << kServeUsage;
    return 0;
  }
  std::string host;
  std::uint16_t port = 0;
  std::filesystem::path state;
  std::optional<std::string> token, port_file;
  unsigned threads = 2;
  unsigned workers = 0;
  Duration checkpoint_every = 5 * kSecond;
  try {
    Arguments args(
        words, {},
        {"listen", "state", "token-file", "port-file", "threads", "checkpoint-every", "workers"});
    if (!args.positional().empty()) throw UsageError("cwf serve takes no file (cwf serve --help)");
    std::tie(host, port) = parse_listen(args.value("listen").value_or("127.0.0.1:8420"));
    state = args.value("state").value_or("cwf-state");
    if (auto file = args.value("token-file")) token = read_token(*file);
    port_file = args.value("port-file");
    if (auto every = args.value("checkpoint-every")) {
      checkpoint_every = parse_duration(*every);
      if (checkpoint_every <= 0) throw UsageError("--checkpoint-every expects a positive duration");
    }
    if (auto n = args.value("threads")) {
      double value = parse_number(*n, "--threads");
      if (value < 1 || value > 64) throw UsageError("--threads must be 1 to 64");
      threads = static_cast<unsigned>(value);
    }
    if (auto n = args.value("workers")) {
      double value = parse_number(*n, "--workers");
      if (!(value >= 1 && value <= 1024) || value != std::floor(value))
        throw UsageError("--workers must be a whole number from 1 to 1024");
      workers = static_cast<unsigned>(value);
    }
    if (!is_loopback(host) && !token)
      throw UsageError("listening on " + host +
                       " makes the server reachable from other machines: give it a token "
                       "(--token-file FILE), or listen on 127.0.0.1");
  } catch (const std::exception& e) {
    err << "cwf serve: " << e.what() << "\n";
    return kExitUsage;
  }

  // SIGINT and SIGTERM are waited for by one thread (blocked in every other, which inherit the
  // mask), which stops the server; the workflows are then stopped in order.
  // A peer that closes its end (a client, Graphviz's dot) must fail a write, not end the server.
  std::signal(SIGPIPE, SIG_IGN);
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &signals, &previous);
  int status = kExitOk;
  try {
    WorkflowCatalog catalog(state, checkpoint_every, workers);
    RestApi api(catalog, token);
    auto server = std::make_unique<HttpServer>(
        host, port, [&api](const ApiRequest& request) { return api.handle(request); });
    err << "cwf serve: listening on http://"
        << (host.find(':') != std::string::npos ? "[" + host + "]" : host) << ":" << server->port()
        << " (state in " << state.string() << ", " << catalog.workers().workers()
        << " shared workers)\n";
    if (port_file) {
      std::ofstream file(*port_file, std::ios::trunc);
      file << server->port() << "\n";
    }
    // The first signal stops the server; a second one, while the workflows drain, leaves at
    // once (as cwf run's second Ctrl-C). Woken by a signal of our own once the server is done.
    std::atomic<bool> done{false};
    std::thread waiter([&] {
      int seen = 0;
      sigwait(&signals, &seen);
      if (done) return;
      g_signal_seen = true;
      server->stop();
      sigwait(&signals, &seen);
      if (!done) _exit(128 + seen);
    });
    std::thread starter([&] {
      std::ostringstream log;
      try {
        catalog.start_saved(log);
      } catch (const std::exception& e) {
        log << "cwf serve: the saved workflows cannot be read: " << e.what() << "\n";
      }
      err << log.str();
      api.set_ready();
    });
    std::string failure;
    try {
      server->run(threads);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    starter.join();
    if (!failure.empty()) done = true;  // the waiter must not stop a server that is gone
    // Closed before the workflows drain: new connections are refused and those open are ended,
    // rather than left waiting for an answer that will not come.
    server.reset();
    err << "cwf serve: suspending every workflow at a checkpoint (a server started again goes on "
           "from there)\n";
    catalog.shutdown();
    done = true;
    pthread_kill(waiter.native_handle(), SIGTERM);
    waiter.join();
    if (!failure.empty()) throw std::runtime_error(failure);
  } catch (const std::exception& e) {
    err << "cwf serve: " << e.what() << "\n";
    status = kExitFailed;
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return status;
}

}  // namespace cwf::cli
