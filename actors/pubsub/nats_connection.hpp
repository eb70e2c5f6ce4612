// One connection to a NATS server (the cnats C client) as the NATS actors use it: a list of
// server URLs, and reconnection for ever after a broker restart, with publications made while
// the server is away kept in a reconnect buffer and sent once the connection is back. The
// parameters every NATS actor shares (`servers`, `reconnect_wait`, `reconnect_buffer`) and their
// reading live here too.
#pragma once

#include <nats/nats.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/loading/actor_registry.hpp"
#include "runtime/time/clock.hpp"

namespace cwf::pubsub {

struct NatsConnectionOptions {
  std::vector<std::string> servers{"nats://127.0.0.1:4222"};
  Duration reconnect_wait = 100 * kMillisecond;     // between attempts while the server is away
  std::int64_t reconnect_buffer = 8 * 1024 * 1024;  // bytes of publications kept meanwhile
  std::string name;                                 // shown by the server's monitoring
};

class NatsError : public std::runtime_error {
 public:
  NatsError(const std::string& what, natsStatus status);
  natsStatus status() const { return status_; }

 private:
  natsStatus status_;
};

// Connected at construction. If no server is reachable yet the connection keeps trying in the
// background (subscriptions made meanwhile are sent when it succeeds), so a consumer may start
// before its broker. Thread-safe like the cnats connection it wraps.
class NatsConnection {
 public:
  explicit NatsConnection(const NatsConnectionOptions& options);
  ~NatsConnection();
  NatsConnection(const NatsConnection&) = delete;
  NatsConnection& operator=(const NatsConnection&) = delete;

  natsConnection* get() const { return connection_; }
  bool connected() const;
  // The first attempt to connect failed (the server is down or unreachable): the connection
  // keeps trying in the background. `unreachable()` says so in words, naming the servers.
  bool first_attempt_failed() const { return first_attempt_failed_; }
  std::string unreachable() const;
  Duration reconnect_wait() const { return reconnect_wait_; }
  // Waits until the server has processed everything sent so far; false on timeout or while
  // disconnected. `error` says why.
  bool flush(Duration timeout, std::string& error);
  std::uint64_t disconnects() const { return events_->disconnects.load(std::memory_order_relaxed); }
  // Connections made after a failure: reconnects, and a first connect that had to wait.
  std::uint64_t reconnects() const { return events_->reconnects.load(std::memory_order_relaxed); }

 private:
  // What the connection callbacks count. cnats may still call them after natsConnection_Destroy
  // returned (the disconnected callback of the close), so they do not point at this object:
  // the counters live on the heap until the closed callback, the last one cnats makes.
  struct Events {
    std::atomic<std::uint64_t> disconnects{0}, reconnects{0};
  };
  void connect(const NatsConnectionOptions& options);
  static void on_disconnected(natsConnection*, void* closure);
  static void on_reconnected(natsConnection*, void* closure);
  static void on_closed(natsConnection*, void* closure);

  natsConnection* connection_ = nullptr;
  std::string servers_;  // as given, for messages
  Duration reconnect_wait_ = 0;
  bool first_attempt_failed_ = false;
  Events* events_;  // freed by on_closed, which only runs once the destructor closed the connection
};

// The connection of the actor named `actor`, shown by the server's monitoring under that name
// unless the options give one.
std::unique_ptr<NatsConnection> open_actor_connection(NatsConnectionOptions options,
                                                      const std::string& actor);

// `servers`, `reconnect_wait`, `reconnect_buffer`.
std::vector<ParamSpec> nats_connection_params();
NatsConnectionOptions nats_connection_options(const Params& params);

// Whether `subject` is a valid NATS subject: dot-separated non-empty tokens without spaces;
// with `wildcards`, a token may be `*` and the last one `>`.
bool valid_subject(std::string_view subject, bool wildcards);
// Whether `token` is one token of a subject (no dots, spaces or wildcards): a dispatch group's
// or a replica's name.
bool valid_subject_token(std::string_view token);

}  // namespace cwf::pubsub
