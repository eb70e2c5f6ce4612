#include "actors/pubsub/nats_sink.hpp"

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/time/duration.hpp"

namespace cwf::pubsub {

NatsSink::NatsSink(const ActorPorts& ports, NatsConnectionOptions connection,
                   Duration flush_timeout, bool jetstream)
    : Actor(ports),
      connection_options_(std::move(connection)),
      flush_timeout_(flush_timeout),
      jetstream_(jetstream) {}

void NatsSink::initialize(ActorContext& context) {
  published_ = 0;
  failed_ = 0;
  sequence_ = 0;
  try {
    connection_ = open_actor_connection(connection_options_, context.name());
    connection_view_.store(connection_.get(), std::memory_order_release);
    if (jetstream_) {
      publisher_ = std::make_unique<JetStreamPublisher>(*connection_);
      id_prefix_ = context.workflow_name() + "/" + context.name() + "/";
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(context.name() + ": " + e.what());
  }
  if (connection_->first_attempt_failed())
    context.report_warning(connection_->unreachable() + "; retrying every " +
                           format_duration(connection_->reconnect_wait()) +
                           ": publications are kept until it answers, and counted as lost if it "
                           "never does before the end of the run");
}

void NatsSink::publish(FiringContext& context, const std::string& subject, const Value& record,
                       const WaveTag& wave) {
  payload_.clear();
  record.append_json(payload_);
  ++sequence_;
  if (publisher_) {
    // The wave by its root's sequence number and its path: a source that stamps arrival time
    // gives an event read again after a resume another root time, never another number.
    id_.assign(id_prefix_);
    wave.append_path(id_);
    id_ += '/';
    id_ += std::to_string(sequence_);
    publisher_->publish(subject, payload_, id_);
    published_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  natsStatus status = natsConnection_Publish(connection_->get(), subject.c_str(), payload_.data(),
                                             static_cast<int>(payload_.size()));
  if (status == NATS_OK)
    published_.fetch_add(1, std::memory_order_relaxed);
  else
    fail(context, "publish to '" + subject + "' failed: " + natsStatus_GetText(status));
}

void NatsSink::fail(FiringContext& context, const std::string& error) {
  failed_.fetch_add(1, std::memory_order_relaxed);
  context.report_error(error);
}

void NatsSink::save_publications(SnapshotWriter& out, ActorContext& context) {
  std::string error;
  if (publisher_ ? !publisher_->complete(flush_timeout_, error)
                 : !connection_->flush(flush_timeout_, error))
    throw std::runtime_error(context.name() +
                             ": the server does not have every publication yet: " + error);
  out.write_u64(sequence_);
}

void NatsSink::restore_publications(SnapshotReader& in) {
  sequence_ = in.read_u64("the messages published");
}

void NatsSink::wrapup(ActorContext& context) {
  if (!connection_) return;
  if (publisher_) {
    std::string error;
    if (published() > 0 && !publisher_->complete(context.time_to_finish(flush_timeout_), error))
      context.report_loss(publisher_->unacknowledged(),
                          "the stream did not acknowledge every publication (" + error +
                              "): some may not have reached it");
    publisher_.reset();
  }
  // Everything handed to the client is on the server once the flush returns; while the server
  // is away the flush waits for the reconnect, up to the timeout.
  // The wait is bounded by the run's own end (cwf run --for, and its grace period).
  std::string error;
  if (published() > 0 && !connection_->flush(context.time_to_finish(flush_timeout_), error)) {
    std::string why = connection_->connected() || connection_->reconnects() > 0
                          ? "the flush at the end failed (" + error + ")"
                          : connection_->unreachable() + ", and no connection was ever made";
    context.report_loss(published(), why + ": publications may not have reached the server");
  }
  connection_view_.store(nullptr, std::memory_order_release);
  connection_.reset();
}

}  // namespace cwf::pubsub
