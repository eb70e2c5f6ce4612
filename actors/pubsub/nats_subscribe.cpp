#include "actors/pubsub/nats_subscribe.hpp"

#include "runtime/time/duration.hpp"

#include <concurrentqueue.h>

#include <chrono>
#include <thread>
#include <vector>

#include "actors/actor_type_util.hpp"
#include "runtime/actor/actor_stats.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::pubsub {

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
  NatsInbox::Item item = inbox.decode(message);
  natsMsg_Destroy(message);
  inbox.push(std::move(item));
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

natsSubscription* subscribe_to(NatsConnection& connection, const std::string& subject,
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
  if (consumer_) {
    // Every message it fetched goes before its subscription does.
    consumer_->stop();
    Inbox::Item item;
    while (inbox_ && inbox_->queue.try_dequeue(item))
      item = Inbox::Item{};
    last_message_.reset();
    checkpointed_message_.reset();
    consumer_.reset();
  }
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
  last_sequence_ = 0;
  last_message_.reset();
  checkpointed_message_.reset();
  inbox_ = std::make_shared<Inbox>();
  inbox_->max_pending = static_cast<std::size_t>(options_.max_pending);
  inbox_->waker = context.external_wake();
  // A resumed JetStream source starts where its checkpoint stood: it subscribes in restore_state.
  if (options_.jetstream && context.resuming()) return;
  subscribe(context, std::nullopt);
}

void NatsSubscribe::subscribe(ActorContext& context, std::optional<std::uint64_t> restart_after) {
  try {
    connection_ = open_actor_connection(options_.connection, context.name());
    connection_view_.store(connection_.get(), std::memory_order_release);
    if (options_.jetstream) {
      open_consumer(context, restart_after);
      return;
    }
    std::string subject = options_.subject;
    if (options_.replica) {
      const NatsReplicaOptions& r = *options_.replica;
      subject = replica_subject(r.prefix, r.group, r.name);
      inbox_->replica_answer = "{\"replica\":\"" + r.name + "\"}";
    }
    subscription_ = subscribe_to(*connection_, subject, options_.queue, &on_message, inbox_);
    std::string error;
    // The replica subject must be known to the server before this replica takes any instance:
    // the dispatcher publishes the instance's events right after the claim answer.
    if (connection_->connected()) connection_->flush(5 * kSecond, error);
    if (options_.replica)
      claims_ = subscribe_to(*connection_,
                             claim_subject(options_.replica->prefix, options_.replica->group),
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

void NatsSubscribe::open_consumer(ActorContext& context,
                                  std::optional<std::uint64_t> restart_after) {
  // The consumer is set up by calls to the server: wait for it (a workflow may start before its
  // broker, or while it restarts), a minute at most.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (bool warned = false; !consumer_; warned = true) {
    std::string why = connection_->unreachable();
    if (connection_->connected()) {
      try {
        consumer_ = std::make_unique<JetStreamConsumer>(*connection_, options_.subject,
                                                        *options_.jetstream, inbox_, restart_after);
        break;
      } catch (const NatsError& e) {
        why = e.what();
      }
    }
    if (std::chrono::steady_clock::now() >= deadline)
      throw std::runtime_error(why + "; JetStream did not answer within a minute");
    if (!warned) context.report_warning(why + "; waiting up to a minute for JetStream to answer");
    std::this_thread::sleep_for(std::chrono::nanoseconds(connection_->reconnect_wait()));
  }
  last_sequence_ = consumer_->start_after();
  subscribed_.store(true, std::memory_order_release);
  initialized_.store(true, std::memory_order_release);
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
      if (item.message) {
        // Handed out again after ack_wait (taken already), or the next one in the stream.
        if (item.stream_sequence <= last_sequence_) {
          if (item.stream_sequence == 0)
            context.report_error("a JetStream message without its stream sequence was skipped");
          continue;
        }
        last_sequence_ = item.stream_sequence;
        last_message_ = std::move(item.message);
      }
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
  // Without checkpoints what the source took is acknowledged at once (a crash loses what is in
  // flight inside the workflow); with them, once a committed checkpoint covers it.
  if (consumer_ && !context.takes_checkpoints() && last_message_) {
    JetStreamConsumer::acknowledge(last_message_.get());
    last_message_.reset();
  }
  if (done_) {
    // Stop taking instances and messages at once; the rest goes to other subscribers. A
    // JetStream source keeps its subscription until wrap-up, to acknowledge what it took.
    if (consumer_)
      consumer_->stop();
    else
      close_subscriptions();
    return;
  }
  // Nothing queued: wait for the receiving thread's wake, holding no worker and polling nothing.
  if (taken == 0) context.await_input();
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
  // A run that ends whole has processed everything it took.
  if (last_message_) JetStreamConsumer::acknowledge(last_message_.get());
  last_message_.reset();
  checkpointed_message_.reset();
  close_subscriptions();
}

void NatsSubscribe::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_u64(last_sequence_);
  out.write_i64(emitted_);
  out.write_bool(done_);
  // Acknowledged once this checkpoint is committed; a later message may replace it meanwhile.
  if (last_message_) checkpointed_message_ = std::move(last_message_);
}

void NatsSubscribe::restore_state(SnapshotReader& in, ActorContext& context) {
  last_sequence_ = in.read_u64("the last stream sequence taken");
  emitted_ = in.read_i64("the records emitted");
  if (emitted_ < 0) in.reject("the records emitted", "negative");
  done_ = in.read_bool("whether the source had ended");
  if (!done_) subscribe(context, last_sequence_);
}

void NatsSubscribe::checkpoint_committed(ActorContext&) {
  if (checkpointed_message_) JetStreamConsumer::acknowledge(checkpointed_message_.get());
  checkpointed_message_.reset();
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
      {"stream", ParamType::string, Value(),
       "a JetStream stream to read (with `durable`): nothing is lost while the workflow is down, "
       "and a checkpoint keeps the position in the stream (docs/pubsub.md, \"JetStream\")"},
      {"durable", ParamType::string, Value(),
       "the name of the stream's durable consumer this source reads through (cwf makes and "
       "positions it: one per source)"},
      {"deliver", ParamType::string, Value(),
       "where a durable made for the first time starts: all (the stream's first message, the "
       "default) or new (its next one)"},
      {"ack_wait", ParamType::duration, Value(),
       "how long the server waits for an acknowledgement before handing a message out again (it "
       "is then skipped); with checkpoints, make it longer than --checkpoint-every. Default 30s"},
      {"max_ack_pending", ParamType::integer, Value(),
       "messages the server hands out unacknowledged at most: with checkpoints, what the source "
       "can take between two of them. Default 65536"},
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
        if (actors::is_set(params, "stream") || actors::is_set(params, "durable")) {
          if (!actors::is_set(params, "stream") || !actors::is_set(params, "durable"))
            throw ParamError(actors::is_set(params, "stream") ? "stream" : "durable",
                             "a JetStream source needs both `stream` and `durable`");
          if (is_replica || actors::is_set(params, "queue"))
            throw ParamError("durable",
                             "a JetStream source is read through its durable consumer: leave "
                             "`queue`, `replica` and `dispatch_group` out");
          JetStreamConsumerOptions js;
          js.stream = params.get_string("stream");
          js.durable = params.get_string("durable");
          if (!valid_subject_token(js.stream))
            throw ParamError("stream", "'" + js.stream +
                                           "' is not a stream name (no dots, spaces or wildcards)");
          if (!valid_subject_token(js.durable))
            throw ParamError("durable", "'" + js.durable +
                                            "' is not a consumer name (no dots, spaces or "
                                            "wildcards)");
          if (actors::is_set(params, "deliver")) {
            std::string deliver = params.get_string("deliver");
            if (deliver != "all" && deliver != "new")
              throw ParamError("deliver", "expected all or new, got '" + deliver + "'");
            js.deliver_new = deliver == "new";
          }
          if (actors::is_set(params, "ack_wait")) {
            js.ack_wait = params.get_duration("ack_wait");
            if (js.ack_wait < kSecond) throw ParamError("ack_wait", "ack_wait must be at least 1s");
          }
          if (actors::is_set(params, "max_ack_pending")) {
            js.max_ack_pending = params.get_int("max_ack_pending");
            if (js.max_ack_pending < 1)
              throw ParamError("max_ack_pending", "max_ack_pending must be at least 1");
          }
          options.jetstream = std::move(js);
        } else {
          for (const char* name : {"deliver", "ack_wait", "max_ack_pending"})
            if (actors::is_set(params, name))
              throw ParamError(name, std::string("`") + name +
                                         "` applies to a JetStream source (`stream` and "
                                         "`durable`)");
        }
        if (actors::is_set(params, "where")) options.where = actors::compile_param(params, "where");
        if (actors::is_set(params, "until")) options.until = actors::compile_param(params, "until");
        if (actors::is_set(params, "count")) {
          options.count = params.get_int("count");
          if (*options.count < 0) throw ParamError("count", "count must not be negative");
        }
        options.batch = params.get_int("batch");
        if (options.batch < 1) throw ParamError("batch", "batch must be at least 1");
        options.max_pending = params.get_int("max_pending");
        if (options.max_pending < 1)
          throw ParamError("max_pending", "max_pending must be at least 1");
        return std::make_unique<NatsSubscribe>(std::move(options));
      });
}

}  // namespace cwf::pubsub
