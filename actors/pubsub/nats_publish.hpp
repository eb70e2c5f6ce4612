// nats_publish: a sink that publishes each input record as JSON on a NATS server, to a subject
// computed from the record (`orders.{/region}`). Publications made while the server is away are
// kept in the connection's reconnect buffer and sent after the reconnect; at wrap-up the sink
// waits (up to `flush_timeout`) until the server has everything, so a clean end loses nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "actors/pubsub/nats_connection.hpp"
#include "actors/pubsub/nats_subject_template.hpp"
#include "runtime/actor.hpp"
#include "runtime/actor_registry.hpp"

namespace cwf::pubsub {

struct NatsPublishOptions {
  NatsConnectionOptions connection;
  SubjectTemplate subject;
  Duration flush_timeout = 10 * kSecond;
};

class NatsPublish final : public Actor {
 public:
  explicit NatsPublish(NatsPublishOptions options);

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;

  // Handed to the client without error (buffered or sent) / refused (bad subject, full buffer).
  std::uint64_t published() const { return published_.load(std::memory_order_relaxed); }
  std::uint64_t failed() const { return failed_.load(std::memory_order_relaxed); }
  // The open connection while the actor runs (null before initialize and after wrap-up); any
  // thread, for looking at its reconnect counters.
  const NatsConnection* connection() const {
    return connection_view_.load(std::memory_order_acquire);
  }

 private:
  NatsPublishOptions options_;
  std::unique_ptr<NatsConnection> connection_;
  std::atomic<const NatsConnection*> connection_view_{nullptr};
  std::string subject_, payload_;  // scratch
  std::atomic<std::uint64_t> published_{0}, failed_{0};
};

ActorType nats_publish_type();

}  // namespace cwf::pubsub
