#include "actors/pubsub/nats_dispatch.hpp"

#include <chrono>
#include <thread>

#include "actors/actor_type_util.hpp"
#include "actors/pubsub/nats_subscribe.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::pubsub {

NatsDispatch::NatsDispatch(NatsDispatchOptions options)
    : NatsSink(kPorts, std::move(options.connection), options.flush_timeout),
      instance_(std::move(options.instance)),
      group_(std::move(options.group)),
      prefix_(std::move(options.prefix)),
      claim_subject_(claim_subject(prefix_, group_)),
      claim_timeout_(options.claim_timeout) {}

void NatsDispatch::initialize(ActorContext& context) {
  owners_.clear();
  NatsSink::initialize(context);
}

std::string NatsDispatch::claim(const std::string& instance, const Value& id, std::string& error) {
  std::string request = "{\"instance\":";
  id.append_json(request);
  request += "}";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(claim_timeout_);
  // Replicas may start after the dispatcher, or be reconnecting: ask again until the deadline.
  while (true) {
    natsMsg* reply = nullptr;
    natsStatus status =
        natsConnection_Request(&reply, nats(), claim_subject_.c_str(), request.data(),
                               static_cast<int>(request.size()), 1000);
    if (status == NATS_OK) {
      std::string_view data(natsMsg_GetData(reply),
                            static_cast<std::size_t>(natsMsg_GetDataLength(reply)));
      std::string name;
      try {
        Value answer = parse_json(data);
        if (const Value* r = answer.is_record() ? answer.field("replica") : nullptr;
            r && r->is_string())
          name = std::string(r->as_string());
      } catch (const JsonError&) {
      }
      natsMsg_Destroy(reply);
      if (!name.empty()) return replica_subject(prefix_, group_, name);
      error = "a replica answered the claim for instance " + instance + " without its name";
      return "";
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      error = "no replica of group '" + group_ + "' took instance " + instance + " (" +
              natsStatus_GetText(status) + ")";
      return "";
    }
    // No replica yet, or no connection: wait a little instead of asking in a tight loop.
    if (status != NATS_TIMEOUT) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void NatsDispatch::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    Value id;
    try {
      id = instance_.evaluate(event.token);
    } catch (const ExprError& e) {
      fail(context, std::string("instance: ") + e.what());
      continue;
    }
    key_ = id.is_string() ? std::string(id.as_string()) : id.to_json();
    auto owner = owners_.find(key_);
    if (owner == owners_.end()) {
      std::string error;
      std::string subject = claim(key_, id, error);
      if (subject.empty()) {
        fail(context, error);
        continue;  // the instance's next event asks again
      }
      owner = owners_.emplace(key_, std::move(subject)).first;
    }
    publish(context, owner->second, event.token);
  }
}

ActorType nats_dispatch_type() {
  std::vector<ParamSpec> params = {
      {"instance", ParamType::expression, std::nullopt,
       "the workflow instance a record belongs to, e.g. /order_id"},
      {"dispatch_group", ParamType::string, std::nullopt,
       "the dispatch group whose replicas take the instances"},
      {"dispatch_prefix", ParamType::string, Value("cwf.dispatch"),
       "subject prefix of the group's claims and replica subjects (as set on the replicas)"},
      {"claim_timeout", ParamType::duration, Value(30 * kSecond),
       "how long to keep asking when no replica takes a new instance; then the event fails"},
      {"flush_timeout", ParamType::duration, Value(10 * kSecond),
       "at the end, how long to wait for the server to have every publication"},
  };
  for (ParamSpec& spec : nats_connection_params())
    params.push_back(std::move(spec));
  return actors::make_type(
      "nats_dispatch",
      "Sends each workflow instance's records to exactly one replica of a dispatch group, in "
      "order: the first record of an instance is claimed by one replica through NATS "
      "request/reply.",
      std::move(params), NatsDispatch::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        NatsDispatchOptions options;
        options.connection = nats_connection_options(params);
        options.instance = actors::compile_param(params, "instance");
        options.group = params.get_string("dispatch_group");
        if (!valid_subject_token(options.group))
          throw ParamError("dispatch_group", "'" + options.group +
                                                 "' is not a subject token (no dots, spaces or "
                                                 "wildcards)");
        options.prefix = params.get_string("dispatch_prefix");
        if (!valid_subject(options.prefix, false))
          throw ParamError("dispatch_prefix", "'" + options.prefix + "' is not a subject");
        options.claim_timeout = params.get_duration("claim_timeout");
        if (options.claim_timeout < 0)
          throw ParamError("claim_timeout", "claim_timeout must not be negative");
        options.flush_timeout = params.get_duration("flush_timeout");
        if (options.flush_timeout < 0)
          throw ParamError("flush_timeout", "flush_timeout must not be negative");
        return std::make_unique<NatsDispatch>(std::move(options));
      });
}

}  // namespace cwf::pubsub
