// A `nats-server` child process on a loopback port, for the tests, the benchmark and local
// experiments: started, killed and restarted on the same port (a broker restart), with a look
// at its monitoring endpoint to know when a subscriber in another process is ready.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>

namespace cwf::pubsub {

class NatsServerProcess {
 public:
  // The nats-server program: $CWF_NATS_SERVER, /usr/sbin/nats-server, or on the PATH; "" if
  // none.
  static std::string find_binary();
  // A TCP port on 127.0.0.1 nobody listens on right now.
  static int free_port();

  // Picks free ports (client and monitoring) and starts the server; throws std::runtime_error
  // if the binary is missing or the server does not accept connections within `timeout`.
  // `jetstream_store`: a folder for JetStream's files (enabled with it), kept across restarts.
  explicit NatsServerProcess(std::chrono::milliseconds timeout = std::chrono::seconds(20),
                             std::string jetstream_store = "");
  ~NatsServerProcess();
  NatsServerProcess(const NatsServerProcess&) = delete;
  NatsServerProcess& operator=(const NatsServerProcess&) = delete;

  std::string url() const;
  int port() const { return port_; }
  bool running() const { return pid_ > 0; }

  // Kills the server (SIGKILL: a crash, nothing is flushed) and waits for it to exit.
  void kill();
  // Starts it again on the same ports and waits until it accepts connections.
  void start(std::chrono::milliseconds timeout = std::chrono::seconds(20));

  // How many client subscriptions on exactly `subject` the server has (monitoring endpoint);
  // -1 if it cannot be asked.
  int subscriptions(const std::string& subject) const;
  // Waits until the server has at least `n` subscriptions on `subject`.
  bool wait_for_subscriptions(const std::string& subject, int n,
                              std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;

 private:
  std::string binary_;
  std::string jetstream_store_;
  int port_ = 0, monitor_port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace cwf::pubsub
