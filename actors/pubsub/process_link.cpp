#include "actors/pubsub/process_link.hpp"

#include <concurrentqueue.h>

#include <charconv>
#include <chrono>
#include <thread>

#include "runtime/actor/actor_context.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/time/duration.hpp"

namespace cwf::pubsub {

std::string ready_subject(const std::string& link_subject) {
  return link_subject + ".ready";
}

std::string credit_subject(const std::string& link_subject, std::uint32_t sender) {
  return link_subject + ".credit." + std::to_string(sender);
}

// ---- outlet ----

struct ProcessOutlet::Credit {
  std::atomic<std::uint64_t> taken{0};  // events the inlet has taken in so far
  ExternalWake waker;
};

namespace {

void on_credit(natsConnection*, natsSubscription*, natsMsg* message, void* closure) {
  auto& credit = **static_cast<std::shared_ptr<ProcessOutlet::Credit>*>(closure);
  std::uint64_t taken = 0;
  const char* data = natsMsg_GetData(message);
  auto [end, error] = std::from_chars(data, data + natsMsg_GetDataLength(message), taken);
  (void)end;
  natsMsg_Destroy(message);
  if (error != std::errc{}) return;
  std::uint64_t before = credit.taken.load(std::memory_order_relaxed);
  while (taken > before &&
         !credit.taken.compare_exchange_weak(before, taken, std::memory_order_acq_rel)) {
  }
  credit.waker.wake();
}

void on_credit_complete(void* closure) {
  delete static_cast<std::shared_ptr<ProcessOutlet::Credit>*>(closure);
}

}  // namespace

ProcessOutlet::ProcessOutlet(ProcessLinkOptions options)
    : Actor(kPorts), options_(std::move(options)) {
  set_may_hold_back_input();
}

ProcessOutlet::~ProcessOutlet() {
  close_credits();
}

void ProcessOutlet::close_credits() {
  if (credits_) {
    natsSubscription_Unsubscribe(credits_);
    natsSubscription_Destroy(credits_);
    credits_ = nullptr;
  }
}

bool ProcessOutlet::holds_back_input() const {
  const Credit* credit = credit_.get();
  return credit && sent_.load(std::memory_order_acquire) >=
                       credit->taken.load(std::memory_order_acquire) + options_.window;
}

void ProcessOutlet::initialize(ActorContext& context) {
  close_credits();
  connection_ = open_actor_connection(options_.connection, context.name());
  credit_ = std::make_shared<Credit>();
  credit_->waker = context.external_wake();
  auto* closure = new std::shared_ptr<Credit>(credit_);
  const std::string subject = credit_subject(options_.subject, options_.process);
  natsStatus status =
      natsConnection_Subscribe(&credits_, connection_->get(), subject.c_str(), on_credit, closure);
  if (status != NATS_OK) {
    delete closure;
    throw NatsError("cannot subscribe to '" + subject + "'", status);
  }
  natsSubscription_SetOnCompleteCB(credits_, &on_credit_complete, closure);
  batch_ = ProcessLinkMessage{};
  batch_.sender = options_.process;
  ready_ = unreachable_ = ended_ = false;
  sent_.store(0, std::memory_order_relaxed);
}

bool ProcessOutlet::inlet_ready(ActorContext& context) {
  if (ready_) return true;
  if (unreachable_) return false;
  // The inlet subscribes to the data before it answers here, on one connection: once it has
  // answered, the server delivers it what is published on the data subject.
  const std::string subject = ready_subject(options_.subject);
  // A run with a time limit (--for) waits no longer than it has.
  const Duration wait = context.time_to_finish(options_.ready_timeout);
  auto give_up = std::chrono::steady_clock::now() + std::chrono::nanoseconds(wait);
  while (std::chrono::steady_clock::now() < give_up) {
    natsMsg* reply = nullptr;
    natsStatus status =
        natsConnection_RequestString(&reply, connection_->get(), subject.c_str(), "", 1000);
    if (status == NATS_OK) {
      natsMsg_Destroy(reply);
      ready_ = true;
      return true;
    }
    // No responder yet (the other process is starting), or no server yet: asked again after a
    // moment (a timeout has waited already).
    if (status != NATS_TIMEOUT) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  unreachable_ = true;
  context.report_error("no process took the link to " + options_.port + " (nobody answered on '" +
                       subject + "' within " + format_duration(wait) + ")");
  return false;
}

void ProcessOutlet::publish(ActorContext& context, const ProcessLinkMessage& message,
                            std::uint64_t events) {
  if (!inlet_ready(context)) {
    if (events > 0) context.report_loss(events, "not sent to " + options_.port);
    return;
  }
  std::vector<std::uint8_t> bytes = encode(message);
  natsStatus status = natsConnection_Publish(connection_->get(), options_.subject.c_str(),
                                             bytes.data(), static_cast<int>(bytes.size()));
  if (status != NATS_OK) {
    context.report_loss(events,
                        "could not send to " + options_.port + ": " + natsStatus_GetText(status));
    return;
  }
  sent_.fetch_add(events, std::memory_order_relaxed);
}

void ProcessOutlet::publish_batch(ActorContext& context) {
  if (batch_.events.empty()) return;
  const std::uint64_t events = batch_.events.size();
  publish(context, batch_, events);
  batch_.sequence += events;
  batch_.events.clear();
}

void ProcessOutlet::fire(FiringContext& context) {
  if (context.port() < 0) {  // the time asked for when the batch began, or a credit came
    publish_batch(context);
    return;
  }
  const Event& arrived = context.window().front();
  batch_.events.push_back(Event{context.take(0), arrived.time, arrived.wave});
  if (batch_.events.size() >= options_.batch)
    publish_batch(context);
  else if (batch_.events.size() == 1)
    context.fire_again_at(context.clock().now() + options_.flush_after);
}

void ProcessOutlet::send_end(ActorContext& context) {
  if (ended_ || !connection_) return;
  ended_ = true;
  publish_batch(context);
  ProcessLinkMessage end;
  end.kind = ProcessLinkMessage::Kind::end;
  end.sender = options_.process;
  end.sequence = batch_.sequence;
  publish(context, end, 0);
  std::string error;
  if (ready_ && !connection_->flush(context.time_to_finish(10 * kSecond), error))
    context.report_loss(batch_.sequence,
                        "sent to " + options_.port + " but not confirmed by the server: " + error);
}

void ProcessOutlet::end_of_input(FiringContext& context) {
  send_end(context);
}

void ProcessOutlet::wrapup(ActorContext& context) {
  // A run cut short (its time was up) still ends the link, so that the other process ends too;
  // what never reached this outlet is counted where it was left.
  send_end(context);
  close_credits();
  connection_.reset();
}

// ---- inlet ----

struct ProcessInlet::Inbox {
  moodycamel::ConcurrentQueue<std::vector<std::uint8_t>> queue;
  ExternalWake waker;
};

namespace {

using InboxRef = std::shared_ptr<ProcessInlet::Inbox>;

void on_data(natsConnection*, natsSubscription*, natsMsg* message, void* closure) {
  ProcessInlet::Inbox& inbox = **static_cast<InboxRef*>(closure);
  const auto* data = reinterpret_cast<const std::uint8_t*>(natsMsg_GetData(message));
  inbox.queue.enqueue(std::vector<std::uint8_t>(
      data, data + static_cast<std::size_t>(natsMsg_GetDataLength(message))));
  natsMsg_Destroy(message);
  inbox.waker.wake();
}

void on_ready(natsConnection* connection, natsSubscription*, natsMsg* message, void*) {
  if (const char* reply = natsMsg_GetReply(message))
    natsConnection_PublishString(connection, reply, "ready");
  natsMsg_Destroy(message);
}

void on_complete(void* closure) {
  delete static_cast<InboxRef*>(closure);
}

}  // namespace

ProcessInlet::ProcessInlet(ProcessLinkOptions options, std::set<std::uint32_t> senders)
    : Actor(kPorts), options_(std::move(options)), senders_(std::move(senders)) {}

ProcessInlet::~ProcessInlet() {
  close();
}

void ProcessInlet::close() {
  for (natsSubscription** sub : {&ready_, &data_}) {
    if (!*sub) continue;
    natsSubscription_Unsubscribe(*sub);
    natsSubscription_Destroy(*sub);
    *sub = nullptr;
  }
  connection_.reset();
}

void ProcessInlet::initialize(ActorContext& context) {
  close();
  next_.clear();
  ended_.clear();
  credited_.clear();
  for (std::uint32_t sender : senders_)
    next_[sender] = credited_[sender] = 0;
  received_.store(0, std::memory_order_relaxed);
  inbox_ = std::make_shared<Inbox>();
  inbox_->waker = context.external_wake();
  connection_ = open_actor_connection(options_.connection, context.name());
  auto* closure = new InboxRef(inbox_);
  natsStatus status = natsConnection_Subscribe(&data_, connection_->get(), options_.subject.c_str(),
                                               on_data, closure);
  if (status != NATS_OK) {
    delete closure;
    throw NatsError("cannot subscribe to '" + options_.subject + "'", status);
  }
  natsSubscription_SetOnCompleteCB(data_, &on_complete, closure);
  // Nothing may be dropped: the handler only queues, and the senders' ends say what to expect.
  natsSubscription_SetPendingLimits(data_, -1, -1);
  status = natsConnection_Subscribe(&ready_, connection_->get(),
                                    ready_subject(options_.subject).c_str(), on_ready, nullptr);
  if (status != NATS_OK)
    throw NatsError("cannot subscribe to '" + ready_subject(options_.subject) + "'", status);
}

void ProcessInlet::take(FiringContext& context, ProcessLinkMessage&& message) {
  auto expected = next_.find(message.sender);
  if (expected == next_.end() || ended_.count(message.sender)) {
    context.report_error(
        "a message on the link to " + options_.port + " from process " +
        std::to_string(message.sender) +
        (expected == next_.end() ? ", which does not send on it" : ", after its end"));
    return;
  }
  std::uint64_t& next = expected->second;
  if (message.kind == ProcessLinkMessage::Kind::end) {
    ended_.insert(message.sender);
    if (message.sequence > next)
      context.report_loss(message.sequence - next, "sent by process " +
                                                       std::to_string(message.sender) + " to " +
                                                       options_.port + " but never received");
    return;
  }
  if (message.sequence != next) {
    if (message.sequence > next)
      context.report_loss(message.sequence - next, "sent by process " +
                                                       std::to_string(message.sender) + " to " +
                                                       options_.port + " but never received");
    else
      context.report_error("events " + std::to_string(message.sequence) + ".. from process " +
                           std::to_string(message.sender) + " to " + options_.port +
                           " received twice");
    if (message.sequence < next) return;
  }
  next = message.sequence + message.events.size();
  received_.fetch_add(message.events.size(), std::memory_order_relaxed);
  for (Event& event : message.events)
    context.emit_event(0, std::move(event));
  // What this firing took in is in the engine's queues, bounded: the sender may send more.
  std::uint64_t& credited = credited_[message.sender];
  if (next - credited >= options_.credit_every) {
    credited = next;
    const std::string text = std::to_string(next);
    natsConnection_PublishString(
        connection_->get(), credit_subject(options_.subject, message.sender).c_str(), text.c_str());
  }
}

void ProcessInlet::fire(FiringContext& context) {
  std::vector<std::uint8_t> bytes;
  bool any = false;
  // A few messages per firing, so that the events they bring are taken on before more come.
  for (int i = 0; i < 16 && inbox_->queue.try_dequeue(bytes); ++i) {
    any = true;
    try {
      take(context, decode_process_link_message(bytes));
    } catch (const SnapshotError& e) {
      context.report_error("a message on the link to " + options_.port +
                           " that does not read: " + e.what());
    }
  }
  if (!any && ended_.size() < senders_.size()) context.await_input();
}

bool ProcessInlet::postfire(FiringContext&) {
  return ended_.size() < senders_.size() || inbox_->queue.size_approx() > 0;
}

void ProcessInlet::wrapup(ActorContext& context) {
  if (ended_.size() < senders_.size())
    context.report_error("the link to " + options_.port + " ended before " +
                         std::to_string(senders_.size() - ended_.size()) +
                         " sending process(es) had ended it");
  close();
}

// ---- links over NATS ----

ProcessLinkOptions NatsProcessLinks::options(const std::string& subject,
                                             const std::string& port) const {
  ProcessLinkOptions options;
  options.connection = connection_;
  options.subject = subject;
  options.port = port;
  options.process = process_;
  return options;
}

std::unique_ptr<Actor> NatsProcessLinks::outlet(const std::string& subject,
                                                const std::string& port) {
  return std::make_unique<ProcessOutlet>(options(subject, port));
}

std::unique_ptr<Actor> NatsProcessLinks::inlet(const std::string& subject, const std::string& port,
                                               std::set<std::uint32_t> senders) {
  return std::make_unique<ProcessInlet>(options(subject, port), std::move(senders));
}

}  // namespace cwf::pubsub
