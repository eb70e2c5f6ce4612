#include "actors/pubsub/nats_publish.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::pubsub {

NatsPublish::NatsPublish(NatsPublishOptions options)
    : NatsSink(kPorts, std::move(options.connection), options.flush_timeout, options.jetstream),
      subject_template_(std::move(options.subject)) {}

void NatsPublish::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    try {
      subject_template_.render(event.token, subject_);
    } catch (const std::exception& e) {
      fail(context, std::string("subject: ") + e.what());
      continue;
    }
    publish(context, subject_, event.token, event.wave);
  }
}

ActorType nats_publish_type() {
  std::vector<ParamSpec> params = {
      {"subject", ParamType::string, std::nullopt,
       "the subject of each message: text with {expression} parts computed from the record, "
       "e.g. orders.{/region}"},
      {"flush_timeout", ParamType::duration, Value(10 * kSecond),
       "at the end, how long to wait for the server to have every publication (e.g. while it "
       "restarts); at a checkpoint too"},
      {"jetstream", ParamType::boolean, Value(false),
       "publish into the JetStream stream that captures the subject: each message acknowledged "
       "by the stream, with an id (workflow/actor/wave/count) it de-duplicates, so that a run "
       "resumed from a checkpoint publishes nothing twice (docs/pubsub.md, \"JetStream\")"},
  };
  for (ParamSpec& spec : nats_connection_params())
    params.push_back(std::move(spec));
  return actors::make_type(
      "nats_publish",
      "Publishes each record as JSON on a NATS server, to a subject computed from the record.",
      std::move(params), NatsPublish::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        NatsPublishOptions options;
        options.connection = nats_connection_options(params);
        try {
          options.subject = SubjectTemplate(params.get_string("subject"));
        } catch (const std::invalid_argument& e) {
          throw ParamError("subject", e.what());
        }
        options.flush_timeout = params.get_duration("flush_timeout");
        options.jetstream = params.get_bool("jetstream");
        if (options.flush_timeout < 0)
          throw ParamError("flush_timeout", "flush_timeout must not be negative");
        return std::make_unique<NatsPublish>(std::move(options));
      });
}

}  // namespace cwf::pubsub
