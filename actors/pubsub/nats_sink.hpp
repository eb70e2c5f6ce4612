// What the NATS sinks (nats_publish, nats_dispatch) share: their connection, opened at
// initialize and flushed and closed at wrap-up, and the publication of one record as JSON with
// its count. A sink differs only in the subject it picks for a record.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "actors/pubsub/nats_connection.hpp"
#include "runtime/actor/actor.hpp"

namespace cwf::pubsub {

class NatsSink : public Actor {
 public:
  void initialize(ActorContext& context) override;
  void wrapup(ActorContext& context) override;

  // Handed to the client without error (buffered or sent) / refused (bad subject, full buffer,
  // no replica).
  std::uint64_t published() const { return published_.load(std::memory_order_relaxed); }
  std::uint64_t failed() const { return failed_.load(std::memory_order_relaxed); }
  // The open connection while the actor runs (null before initialize and after wrap-up); any
  // thread, for looking at its reconnect counters.
  const NatsConnection* connection() const {
    return connection_view_.load(std::memory_order_acquire);
  }

 protected:
  NatsSink(const ActorPorts& ports, NatsConnectionOptions connection, Duration flush_timeout);

  natsConnection* nats() const { return connection_->get(); }
  // Publishes `record` as JSON on `subject` and counts it as published or failed.
  void publish(FiringContext& context, const std::string& subject, const Value& record);
  // Counts a record that could not be published and reports why.
  void fail(FiringContext& context, const std::string& error);

 private:
  NatsConnectionOptions connection_options_;
  Duration flush_timeout_;
  std::unique_ptr<NatsConnection> connection_;
  std::atomic<const NatsConnection*> connection_view_{nullptr};
  std::string payload_;  // scratch, reused for every record
  std::atomic<std::uint64_t> published_{0}, failed_{0};
};

}  // namespace cwf::pubsub
