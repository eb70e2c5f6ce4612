#include "actors/pubsub/nats_publish.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::pubsub {

NatsPublish::NatsPublish(NatsPublishOptions options) : options_(std::move(options)) {
  add_input("in", "records to publish, one message each");
}

void NatsPublish::initialize(ActorContext& context) {
  published_ = 0;
  failed_ = 0;
  try {
    NatsConnectionOptions connection = options_.connection;
    if (connection.name.empty()) connection.name = "cwf " + context.name();
    connection_ = std::make_unique<NatsConnection>(connection);
    connection_view_.store(connection_.get(), std::memory_order_release);
  } catch (const std::exception& e) {
    throw std::runtime_error(context.name() + ": " + e.what());
  }
}

void NatsPublish::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    try {
      options_.subject.render(event.token, subject_);
    } catch (const std::exception& e) {
      failed_.fetch_add(1, std::memory_order_relaxed);
      context.report_error(std::string("subject: ") + e.what());
      continue;
    }
    payload_.clear();
    event.token.append_json(payload_);
    natsStatus status = natsConnection_Publish(connection_->get(), subject_.c_str(),
                                               payload_.data(), static_cast<int>(payload_.size()));
    if (status == NATS_OK) {
      published_.fetch_add(1, std::memory_order_relaxed);
    } else {
      failed_.fetch_add(1, std::memory_order_relaxed);
      context.report_error("publish to '" + subject_ + "' failed: " + natsStatus_GetText(status));
    }
  }
}

void NatsPublish::wrapup(ActorContext& context) {
  if (!connection_) return;
  // Everything handed to the client is on the server once the flush returns; while the server
  // is away the flush waits for the reconnect, up to the timeout.
  std::string error;
  if (published() > 0 && !connection_->flush(options_.flush_timeout, error))
    context.report_error("flush at the end failed (" + error +
                         "): publications still buffered may not have reached the server");
  connection_view_.store(nullptr, std::memory_order_release);
  connection_.reset();
}

ActorType nats_publish_type() {
  std::vector<ParamSpec> params = {
      {"subject", ParamType::string, std::nullopt,
       "the subject of each message: text with {expression} parts computed from the record, "
       "e.g. orders.{/region}"},
      {"flush_timeout", ParamType::duration, Value(10 * kSecond),
       "at the end, how long to wait for the server to have every publication (e.g. while it "
       "restarts)"},
  };
  for (ParamSpec& spec : nats_connection_params())
    params.push_back(std::move(spec));
  return actors::make_type(
      "nats_publish",
      "Publishes each record as JSON on a NATS server, to a subject computed from the record.",
      std::move(params), {{"in", "records to publish, one message each"}}, {},
      [](const Params& params) -> std::unique_ptr<Actor> {
        NatsPublishOptions options;
        options.connection = nats_connection_options(params);
        try {
          options.subject = SubjectTemplate(params.get_string("subject"));
        } catch (const std::invalid_argument& e) {
          throw ParamError("subject", e.what());
        }
        options.flush_timeout = params.get_duration("flush_timeout");
        if (options.flush_timeout < 0)
          throw ParamError("flush_timeout", "flush_timeout must not be negative");
        return std::make_unique<NatsPublish>(std::move(options));
      });
}

}  // namespace cwf::pubsub
