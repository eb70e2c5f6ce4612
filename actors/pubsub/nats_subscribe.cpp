#include "actors/pubsub/nats_subscribe.hpp"

#include "runtime/time/duration.hpp"

#include <concurrentqueue.h>

#include <vector>

#include "actors/actor_type_util.hpp"
#include "runtime/actor/actor_stats.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::pubsub {

struct NatsSubscribe::Inbox {
  struct Item {
    Value record;
    std::string error;  // set for a message that is not a JSON object
  };
  moodycamel::ConcurrentQueue<Item> queue;
  JsonParser parser;  // used by the one delivery thread of the subscription
  std::string replica_answer;
  std::atomic<std::uint64_t> received{0}, claimed{0};
  // A NATS subject cannot be slowed down: beyond `max_pending` messages waiting to be emitted,
  // new ones are dropped (counted in `shed`) instead of filling memory.
  std::size_t max_pending = 65536;
  std::atomic<std::uint64_t> shed{0};
};

namespace {

// The closure of a subscription: keeps the inbox alive until cnats reports that the handler
// has returned for the last time (on_complete), whatever happens to the actor meanwhile.
using InboxRef = std::shared_ptr<NatsSubscribe::Inbox>;

void on_message(natsConnection*, natsSubscription*, natsMsg* message, void* closure) {
  NatsSubscribe::Inbox& inbox = **static_cast<InboxRef*>(closure);
  if (inbox.queue.size_approx() >= inbox.max_pending) {
    natsMsg_Destroy(message);
    inbox.shed.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  NatsSubscribe::Inbox::Item item;
  std::string_view data(natsMsg_GetData(message),
                        static_cast<std::size_t>(natsMsg_GetDataLength(message)));
  try {
    item.record = inbox.parser.parse(data);
    if (!item.record.is_record())
      item.error = "expected a JSON object, got " + std::string(kind_name(item.record.kind()));
  } catch (const JsonError& e) {
    item.error = std::string("invalid JSON at ") + e.what();
  }
  if (!item.error.empty())
    item.error = "message on '" + std::string(natsMsg_GetSubject(message)) + "': " + item.error;
  natsMsg_Destroy(message);
  inbox.received.fetch_add(1, std::memory_order_relaxed);
  inbox.queue.enqueue(std::move(item));
}

// A dispatcher asks the group who takes a new instance; the queue group lets exactly one
// replica answer, with its name.
void on_claim(natsConnection* connection, natsSubscription*, natsMsg* message, void* closure) {
  NatsSubscribe::Inbox& inbox = **static_cast<InboxRef*>(closure);
  if (const char* reply = natsMsg_GetReply(message)) {
    if (natsConnection_PublishString(connection, reply, inbox.replica_answer.c_str()) == NATS_OK)
      inbox.claimed.fetch_add(1, std::memory_order_relaxed);
  }
  natsMsg_Destroy(message);
}

void on_complete(void* closure) {
  delete static_cast<InboxRef*>(closure);
}

natsSubscription* subscribe(NatsConnection& connection, const std::string& subject,
                            const std::string& queue, natsMsgHandler handler,
                            const std::shared_ptr<NatsSubscribe::Inbox>& inbox) {
  auto* closure = new InboxRef(inbox);
  natsSubscription* sub = nullptr;
  natsStatus status =
      queue.empty()
          ? natsConnection_Subscribe(&sub, connection.get(), subject.c_str(), handler, closure)
          : natsConnection_QueueSubscribe(&sub, connection.get(), subject.c_str(), queue.c_str(),
                                          handler, closure);
  if (status != NATS_OK) {
    delete closure;
    throw NatsError("cannot subscribe to '" + subject + "'", status);
  }
  natsSubscription_SetOnCompleteCB(sub, &on_complete, closure);
  // The handler only moves messages to our queue, so cnats' own pending limits (a slow consumer
  // drops beyond them) would only cut bursts short.
  natsSubscription_SetPendingLimits(sub, -1, -1);
  return sub;
}

}  // namespace

std::string claim_subject(const std::string& prefix, const std::string& group) {
  return prefix + "." + group + ".claim";
}

std::string replica_subject(const std::string& prefix, const std::string& group,
                            const std::string& replica) {
  return prefix + "." + group + ".replica." + replica;
}

NatsSubscribe::NatsSubscribe(NatsSubscribeOptions options)
    : Actor(kPorts), options_(std::move(options)) {}

NatsSubscribe::~NatsSubscribe() {
  close_subscriptions();
}

void NatsSubscribe::close_subscriptions() {
  subscribed_.store(false, std::memory_order_release);
  for (natsSubscription** sub : {&claims_, &subscription_}) {
    if (!*sub) continue;
    natsSubscription_Unsubscribe(*sub);
    natsSubscription_Destroy(*sub);
    *sub = nullptr;
  }
  connection_view_.store(nullptr, std::memory_order_release);
  connection_.reset();
}

void NatsSubscribe::initialize(ActorContext& context) {
  close_subscriptions();
  emitted_ = 0;
  done_ = false;
  inbox_ = std::make_shared<Inbox>();
  inbox_->max_pending = static_cast<std::size_t>(options_.max_pending);
  try {
    connection_ = open_actor_connection(options_.connection, context.name());
    connection_view_.store(connection_.get(), std::memory_order_release);
    std::string subject = options_.subject;
    if (options_.replica) {
      const NatsReplicaOptions& r = *options_.replica;
      subject = replica_subject(r.prefix, r.group, r.name);
      inbox_->replica_answer = "{\"replica\":\"" + r.name + "\"}";
    }
    subscription_ = subscribe(*connection_, subject, options_.queue, &on_message, inbox_);
    std::string error;
    // The replica subject must be known to the server before this replica takes any instance:
    // the dispatcher publishes the instance's events right after the claim answer.
    if (connection_->connected()) connection_->flush(5 * kSecond, error);
    if (options_.replica)
      claims_ =
          subscribe(*connection_, claim_subject(options_.replica->prefix, options_.replica->group),
                    options_.replica->group, &on_claim, inbox_);
    if (connection_->connected() && connection_->flush(5 * kSecond, error))
      subscribed_.store(true, std::memory_order_release);
    initialized_.store(true, std::memory_order_release);
  } catch (const std::exception& e) {
    close_subscriptions();
    throw std::runtime_error(context.name() + ": " + e.what());
  }
  if (connection_->first_attempt_failed())
    context.report_warning(connection_->unreachable() + "; retrying every " +
                           format_duration(connection_->reconnect_wait()) +
                           ": nothing arrives until it answers");
}

void NatsSubscribe::report_shed(ActorContext& context) {
  std::uint64_t shed = inbox_ ? inbox_->shed.load(std::memory_order_relaxed) : 0;
  if (shed == shed_reported_) return;
  context.report_dropped(shed - shed_reported_, "the messages arrived while max_pending (" +
                                                    std::to_string(options_.max_pending) +
                                                    ") were already waiting to be emitted");
  shed_reported_ = shed;
}

void NatsSubscribe::fire(FiringContext& context) {
  report_shed(context);
  if (options_.count && emitted_ >= *options_.count) done_ = true;
  Inbox::Item items[64];
  std::int64_t taken = 0;
  while (taken < options_.batch && !done_) {
    std::size_t want = static_cast<std::size_t>(std::min<std::int64_t>(64, options_.batch - taken));
    // Never take more than `count` allows: what stays queued is not consumed.
    if (options_.count)
      want = std::min<std::size_t>(want, static_cast<std::size_t>(*options_.count - emitted_));
    std::size_t n = want == 0 ? 0 : inbox_->queue.try_dequeue_bulk(items, want);
    if (n == 0) break;
    taken += static_cast<std::int64_t>(n);
    for (std::size_t i = 0; i < n && !done_; ++i) {
      Inbox::Item& item = items[i];
      if (!item.error.empty()) {
        context.report_error(item.error);
        continue;
      }
      try {
        if (options_.until && options_.until->matches(item.record)) {
          done_ = true;
          break;
        }
        if (options_.where && !options_.where->matches(item.record)) continue;
      } catch (const ExprError& e) {
        context.report_error(std::string("where/until: ") + e.what());
        continue;
      }
      context.emit(kOut, std::move(item.record));
      if (options_.count && ++emitted_ >= *options_.count) done_ = true;
    }
    for (std::size_t i = 0; i < n; ++i)
      items[i] = Inbox::Item{};
    if (n < want) break;
  }
  if (done_) {
    // Stop taking instances and messages at once; the rest goes to other subscribers.
    close_subscriptions();
    return;
  }
  if (taken < options_.batch) context.fire_again_at(context.clock().now() + options_.poll_interval);
}

bool NatsSubscribe::postfire(FiringContext&) {
  return !done_;
}

void NatsSubscribe::wrapup(ActorContext& context) {
  if (subscription_) {
    int64_t dropped = 0;
    if (natsSubscription_GetDropped(subscription_, &dropped) == NATS_OK && dropped > 0)
      context.report_dropped(static_cast<std::uint64_t>(dropped),
                             "the client dropped " + std::to_string(dropped) +
                                 " message(s) it could not deliver in time (slow consumer)");
  }
  report_shed(context);
  close_subscriptions();
}

bool NatsSubscribe::subscribed() const {
  return subscribed_.load(std::memory_order_acquire);
}

std::uint64_t NatsSubscribe::received() const {
  return inbox_ ? inbox_->received.load(std::memory_order_relaxed) : 0;
}

std::uint64_t NatsSubscribe::shed() const {
  return inbox_ ? inbox_->shed.load(std::memory_order_relaxed) : 0;
}

std::uint64_t NatsSubscribe::claimed() const {
  return inbox_ ? inbox_->claimed.load(std::memory_order_relaxed) : 0;
}

ActorType nats_subscribe_type() {
  std::vector<ParamSpec> params = {
      {"subject", ParamType::string, Value(),
       "the subject to subscribe to; wildcards: * (one token), > (the rest). Not set for a "
       "replica (it gets its own subject)"},
      {"queue", ParamType::string, Value(),
       "queue group: each message goes to one subscriber of the group (per message, not per "
       "instance: see replica)"},
      {"where", ParamType::expression, Value(),
       "content filter on the decoded record, e.g. /amount > 100; others are skipped"},
      {"count", ParamType::integer, Value(), "end after emitting this many records"},
      {"until", ParamType::expression, Value(),
       "end at the first record for which this holds (an end-of-stream marker, not emitted), "
       "e.g. exists(/eos)"},
      {"poll_interval", ParamType::duration, Value(kMillisecond),
       "how soon the source looks again when nothing was queued: the added latency at most"},
      {"batch", ParamType::integer, Value(1024), "max records emitted per firing"},
      {"max_pending", ParamType::integer, Value(65536),
       "messages received and not emitted yet that the source holds (a subject cannot be slowed "
       "down: while its output is held back by a full connection they wait here); beyond it new "
       "messages are dropped, counted and reported (exit status 3)"},
      {"replica", ParamType::string, Value(),
       "this engine's name as a replica of `dispatch_group`: it answers claims for new "
       "instances and receives their events (see nats_dispatch)"},
      {"dispatch_group", ParamType::string, Value(), "the dispatch group of a replica"},
      {"dispatch_prefix", ParamType::string, Value("cwf.dispatch"),
       "subject prefix of the dispatch group's claims and replica subjects"},
  };
  for (ParamSpec& spec : nats_connection_params())
    params.push_back(std::move(spec));
  return actors::make_type(
      "nats_subscribe",
      "Emits the records published on a NATS subject (JSON objects), optionally in a queue "
      "group, filtered, or as a replica of a dispatch group.",
      std::move(params), NatsSubscribe::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        NatsSubscribeOptions options;
        options.connection = nats_connection_options(params);
        bool is_replica = actors::is_set(params, "replica");
        if (is_replica != actors::is_set(params, "dispatch_group"))
          throw ParamError(is_replica ? "replica" : "dispatch_group",
                           "a replica needs both `replica` and `dispatch_group`");
        if (is_replica) {
          NatsReplicaOptions replica;
          replica.name = params.get_string("replica");
          replica.group = params.get_string("dispatch_group");
          replica.prefix = params.get_string("dispatch_prefix");
          if (!valid_subject_token(replica.name))
            throw ParamError(
                "replica",
                "'" + replica.name + "' is not a subject token (no dots, spaces or wildcards)");
          if (!valid_subject_token(replica.group))
            throw ParamError(
                "dispatch_group",
                "'" + replica.group + "' is not a subject token (no dots, spaces or wildcards)");
          if (!valid_subject(replica.prefix, false))
            throw ParamError("dispatch_prefix", "'" + replica.prefix + "' is not a subject");
          if (actors::is_set(params, "subject"))
            throw ParamError("subject",
                             "a replica subscribes to its own subject: leave `subject` out");
          if (actors::is_set(params, "queue"))
            throw ParamError("queue", "a replica is in its dispatch group: leave `queue` out");
          options.replica = std::move(replica);
        } else {
          if (!actors::is_set(params, "subject"))
            throw ParamError("subject", "`subject` is required (or `replica` + `dispatch_group`)");
          options.subject = params.get_string("subject");
          if (!valid_subject(options.subject, true))
            throw ParamError("subject", "'" + options.subject +
                                            "' is not a subject: dot-separated tokens without "
                                            "spaces; * for one token, > at the end for the rest");
          if (actors::is_set(params, "queue")) {
            options.queue = params.get_string("queue");
            if (options.queue.empty() || options.queue.find_first_of(" \t") != std::string::npos)
              throw ParamError("queue", "a queue group name has no spaces and is not empty");
          }
        }
        if (actors::is_set(params, "where")) options.where = actors::compile_param(params, "where");
        if (actors::is_set(params, "until")) options.until = actors::compile_param(params, "until");
        if (actors::is_set(params, "count")) {
          options.count = params.get_int("count");
          if (*options.count < 0) throw ParamError("count", "count must not be negative");
        }
        options.poll_interval = params.get_duration("poll_interval");
        if (options.poll_interval < 10'000)
          throw ParamError("poll_interval", "poll_interval must be at least 10 us");
        options.batch = params.get_int("batch");
        if (options.batch < 1) throw ParamError("batch", "batch must be at least 1");
        options.max_pending = params.get_int("max_pending");
        if (options.max_pending < 1)
          throw ParamError("max_pending", "max_pending must be at least 1");
        return std::make_unique<NatsSubscribe>(std::move(options));
      });
}

}  // namespace cwf::pubsub
