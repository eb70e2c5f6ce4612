#include "actors/pubsub/nats_dispatch.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "actors/pubsub/nats_subscribe.hpp"
#include "runtime/time/duration.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::pubsub {

NatsDispatch::NatsDispatch(NatsDispatchOptions options)
    : NatsSink(kPorts, std::move(options.connection), options.flush_timeout),
      instance_(std::move(options.instance)),
      group_(std::move(options.group)),
      prefix_(std::move(options.prefix)),
      claim_subject_(claim_subject(prefix_, group_)),
      claim_timeout_(options.claim_timeout) {}

namespace {

// The closure of the replies' subscription: keeps the replies alive until cnats reports that the
// handler has returned for the last time, whatever happens to the actor meanwhile.
using RepliesRef = std::shared_ptr<NatsDispatch::Replies>;

// On cnats' delivery thread: the reply to claim request <prefix>.<attempt>.
void on_reply(natsConnection*, natsSubscription*, natsMsg* message, void* closure) {
  NatsDispatch::Replies& replies = **static_cast<RepliesRef*>(closure);
  NatsDispatch::Reply reply;
  std::string_view subject(natsMsg_GetSubject(message));
  std::string_view attempt = subject.substr(subject.rfind('.') + 1);
  std::from_chars(attempt.data(), attempt.data() + attempt.size(), reply.attempt);
  if (natsMsg_IsNoResponders(message)) {
    reply.no_responders = true;
  } else {
    std::string_view data(natsMsg_GetData(message),
                          static_cast<std::size_t>(natsMsg_GetDataLength(message)));
    try {
      Value answer = parse_json(data);
      if (const Value* r = answer.is_record() ? answer.field("replica") : nullptr;
          r && r->is_string())
        reply.replica = std::string(r->as_string());
    } catch (const JsonError&) {
    }
  }
  natsMsg_Destroy(message);
  {
    std::lock_guard lock(replies.mutex);
    replies.items.push_back(std::move(reply));
  }
  replies.waker.wake();
}

void on_complete(void* closure) {
  delete static_cast<RepliesRef*>(closure);
}

Timestamp later(Timestamp time, Duration by) {
  Timestamp sum;
  return __builtin_add_overflow(time, by, &sum) ? std::numeric_limits<Timestamp>::max() : sum;
}

}  // namespace

void NatsDispatch::initialize(ActorContext& context) {
  if (dynamic_cast<const VirtualClock*>(&context.clock()))
    throw std::runtime_error(context.name() +
                             ": nats_dispatch waits for its claims' replies in real time: a "
                             "virtual clock does not wait for the network");
  owners_.clear();
  claims_.clear();
  attempts_.clear();
  next_attempt_ = 0;
  NatsSink::initialize(context);
  replies_ = std::make_shared<Replies>();
  replies_->waker = context.external_wake();
  natsInbox* inbox = nullptr;
  if (natsStatus status = natsInbox_Create(&inbox); status != NATS_OK)
    throw NatsError(context.name() + ": cannot make an inbox for the claims' replies", status);
  reply_prefix_ = inbox;
  natsInbox_Destroy(inbox);
  auto* closure = new RepliesRef(replies_);
  natsStatus status = natsConnection_Subscribe(&replies_subscription_, nats(),
                                               (reply_prefix_ + ".*").c_str(), on_reply, closure);
  if (status != NATS_OK) {
    delete closure;
    throw NatsError(context.name() + ": cannot subscribe to the claims' replies", status);
  }
  natsSubscription_SetOnCompleteCB(replies_subscription_, &on_complete, closure);
  natsSubscription_SetPendingLimits(replies_subscription_, -1, -1);
}

void NatsDispatch::wrapup(ActorContext& context) {
  if (replies_subscription_) {
    natsSubscription_Unsubscribe(replies_subscription_);
    natsSubscription_Destroy(replies_subscription_);
    replies_subscription_ = nullptr;
  }
  // A run stopped while instances were being claimed (cwf run --for): their records are lost.
  std::uint64_t waiting = 0;
  for (const auto& [instance, claim] : claims_)
    waiting += claim.waiting.size();
  if (waiting > 0)
    context.report_dropped(waiting, std::to_string(waiting) +
                                        " record(s) of instances no replica had taken yet when "
                                        "the run ended");
  claims_.clear();
  NatsSink::wrapup(context);
}

void NatsDispatch::ask(FiringContext& context, const std::string& instance, Claim& claim,
                       Timestamp now) {
  if (claim.attempt != 0) attempts_.erase(claim.attempt);
  claim.attempt = ++next_attempt_;
  attempts_[claim.attempt] = instance;
  std::string request = "{\"instance\":";
  claim.id.append_json(request);
  request += "}";
  const std::string reply = reply_prefix_ + "." + std::to_string(claim.attempt);
  natsStatus status =
      natsConnection_PublishRequest(nats(), claim_subject_.c_str(), reply.c_str(), request.data(),
                                    static_cast<int>(request.size()));
  // Unanswered within a second (replicas may start after the dispatcher, or be reconnecting),
  // or not even sent: ask again, until the deadline.
  claim.retry_at =
      std::min(claim.deadline, later(now, status == NATS_OK ? kSecond : 50 * kMillisecond));
  context.fire_again_at(claim.retry_at);
}

void NatsDispatch::take_replies(FiringContext& context) {
  std::vector<Reply> replies;
  {
    std::lock_guard lock(replies_->mutex);
    replies.swap(replies_->items);
  }
  const Timestamp now = context.clock().now();
  for (Reply& reply : replies) {
    auto attempt = attempts_.find(reply.attempt);
    if (attempt == attempts_.end()) continue;  // answers a request asked again since
    auto claim = claims_.find(attempt->second);
    if (reply.no_responders) {
      // No replica listens yet: ask again soon rather than in a tight loop.
      claim->second.retry_at = std::min(claim->second.deadline, later(now, 50 * kMillisecond));
      context.fire_again_at(claim->second.retry_at);
      continue;
    }
    attempts_.erase(attempt);
    if (reply.replica.empty()) {
      std::string error =
          "a replica answered the claim for instance " + claim->first + " without its name";
      for (std::size_t i = 0; i < claim->second.waiting.size(); ++i)
        fail(context, error);
      claims_.erase(claim);  // the instance's next record asks again
      continue;
    }
    auto owner =
        owners_.emplace(claim->first, replica_subject(prefix_, group_, reply.replica)).first;
    for (const Value& record : claim->second.waiting)
      publish(context, owner->second, record);
    claims_.erase(claim);
  }
}

void NatsDispatch::retry_or_fail(FiringContext& context) {
  const Timestamp now = context.clock().now();
  for (auto claim = claims_.begin(); claim != claims_.end();) {
    if (now >= claim->second.deadline) {
      std::string error = "no replica of group '" + group_ + "' took instance " + claim->first +
                          " within " + format_duration(claim_timeout_);
      for (std::size_t i = 0; i < claim->second.waiting.size(); ++i)
        fail(context, error);
      attempts_.erase(claim->second.attempt);
      claim = claims_.erase(claim);  // the instance's next record asks again
      continue;
    }
    if (now >= claim->second.retry_at) ask(context, claim->first, claim->second, now);
    ++claim;
  }
}

void NatsDispatch::fire(FiringContext& context) {
  if (context.port() < 0) {  // a claim's reply woke it, or a claim's time to ask again came
    take_replies(context);
    retry_or_fail(context);
  }
  for (const Event& event : context.window()) {
    Value id;
    try {
      id = instance_.evaluate(event.token);
    } catch (const ExprError& e) {
      fail(context, std::string("instance: ") + e.what());
      continue;
    }
    key_ = id.is_string() ? std::string(id.as_string()) : id.to_json();
    if (auto owner = owners_.find(key_); owner != owners_.end()) {
      publish(context, owner->second, event.token);
      continue;
    }
    if (auto claim = claims_.find(key_); claim != claims_.end()) {
      claim->second.waiting.push_back(event.token);  // behind the records already waiting
      continue;
    }
    const Timestamp now = context.clock().now();
    Claim& claim = claims_[key_];
    claim.id = id;
    claim.waiting.push_back(event.token);
    claim.deadline = later(now, claim_timeout_);
    ask(context, key_, claim, now);
  }
  // The run's input does not end while an instance is being claimed.
  context.await_outside(!claims_.empty());
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
