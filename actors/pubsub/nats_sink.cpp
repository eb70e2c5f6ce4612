#include "actors/pubsub/nats_sink.hpp"

namespace cwf::pubsub {

NatsSink::NatsSink(NatsConnectionOptions connection, Duration flush_timeout)
    : connection_options_(std::move(connection)), flush_timeout_(flush_timeout) {}

void NatsSink::initialize(ActorContext& context) {
  published_ = 0;
  failed_ = 0;
  try {
    connection_ = open_actor_connection(connection_options_, context.name());
    connection_view_.store(connection_.get(), std::memory_order_release);
  } catch (const std::exception& e) {
    throw std::runtime_error(context.name() + ": " + e.what());
  }
}

void NatsSink::publish(FiringContext& context, const std::string& subject, const Value& record) {
  payload_.clear();
  record.append_json(payload_);
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

void NatsSink::wrapup(ActorContext& context) {
  if (!connection_) return;
  // Everything handed to the client is on the server once the flush returns; while the server
  // is away the flush waits for the reconnect, up to the timeout.
  std::string error;
  if (published() > 0 && !connection_->flush(flush_timeout_, error))
    context.report_error("flush at the end failed (" + error +
                         "): publications still buffered may not have reached the server");
  connection_view_.store(nullptr, std::memory_order_release);
  connection_.reset();
}

}  // namespace cwf::pubsub
