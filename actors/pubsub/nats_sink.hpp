// What the NATS sinks (nats_publish, nats_dispatch) share: their connection, opened at
// initialize and flushed and closed at wrap-up, and the publication of one record as JSON with
// its count. A sink differs only in the subject it picks for a record. A sink made with
// `jetstream` publishes into a stream through a JetStreamPublisher instead, each message with an
// id made of the workflow's and the actor's names, the event's wave and the sink's count.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "actors/pubsub/jetstream_publisher.hpp"
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
  NatsSink(const ActorPorts& ports, NatsConnectionOptions connection, Duration flush_timeout,
           bool jetstream = false);

  natsConnection* nats() const { return connection_->get(); }
  // Publishes `record` as JSON on `subject` and counts it as published or failed. `wave`: the
  // event's, for the message id of a JetStream publication.
  void publish(FiringContext& context, const std::string& subject, const Value& record,
               const WaveTag& wave = {});
  // Checkpoints: everything published so far is on the server (acknowledged by the stream with
  // `jetstream`), and the count of messages, which message ids continue from in a resumed run.
  void save_publications(SnapshotWriter& out, ActorContext& context);
  void restore_publications(SnapshotReader& in);
  // Counts a record that could not be published and reports why.
  void fail(FiringContext& context, const std::string& error);

 private:
  NatsConnectionOptions connection_options_;
  Duration flush_timeout_;
  bool jetstream_;
  std::unique_ptr<NatsConnection> connection_;
  std::unique_ptr<JetStreamPublisher> publisher_;
  std::uint64_t sequence_ = 0;  // messages published, including those of the run resumed
  std::string id_prefix_;       // "workflow/actor/" of the message ids
  std::string id_;              // scratch, reused for every message id
  std::atomic<const NatsConnection*> connection_view_{nullptr};
  std::string payload_;  // scratch, reused for every record
  std::atomic<std::uint64_t> published_{0}, failed_{0};
};

}  // namespace cwf::pubsub
