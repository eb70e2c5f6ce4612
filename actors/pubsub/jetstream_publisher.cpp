#include "actors/pubsub/jetstream_publisher.hpp"

#include <chrono>
#include <thread>

namespace cwf::pubsub {

namespace {

constexpr const char* kMessageIdHeader = "Nats-Msg-Id";

// Every publication still waiting for its acknowledgement, taken back from the client (which
// destroys them). Only for a context that has published: the client keeps no list of pending
// publications before, and asking for it then crashes (cnats 3.4).
std::vector<natsMsg*> take_pending(jsCtx* js) {
  std::vector<natsMsg*> taken;
  natsMsgList pending{};
  if (js_PublishAsyncGetPendingList(&pending, js) != NATS_OK) return taken;
  for (int i = 0; i < pending.Count; ++i) {
    taken.push_back(pending.Msgs[i]);
    pending.Msgs[i] = nullptr;
  }
  natsMsgList_Destroy(&pending);
  return taken;
}

}  // namespace

JetStreamPublisher::JetStreamPublisher(NatsConnection& connection) {
  jsOptions options;
  jsOptions_Init(&options);
  options.PublishAsync.ErrHandler = &JetStreamPublisher::on_error;
  options.PublishAsync.ErrHandlerClosure = this;
  options.PublishAsync.MaxPending = 4096;
  natsStatus status = natsConnection_JetStream(&js_, connection.get(), &options);
  if (status != NATS_OK) throw NatsError("JetStream", status);
}

JetStreamPublisher::~JetStreamPublisher() {
  // No acknowledgement may call on_error once this object is gone: wait a little, then take
  // back whatever is still outstanding before the context goes.
  if (sent_) {
    jsPubOptions wait;
    jsPubOptions_Init(&wait);
    wait.MaxWait = 1000;
    js_PublishAsyncComplete(js_, &wait);
    for (natsMsg* message : take_pending(js_))
      natsMsg_Destroy(message);
  }
  jsCtx_Destroy(js_);
}

JetStreamPublisher::Unacknowledged JetStreamPublisher::copy_of(natsMsg* message) {
  const char* id = nullptr;
  natsMsgHeader_Get(message, kMessageIdHeader, &id);
  return {natsMsg_GetSubject(message),
          std::string(natsMsg_GetData(message),
                      static_cast<std::size_t>(natsMsg_GetDataLength(message))),
          id ? id : ""};
}

void JetStreamPublisher::on_error(jsCtx*, jsPubAckErr* error, void* closure) {
  auto& self = *static_cast<JetStreamPublisher*>(closure);
  Unacknowledged again = copy_of(error->Msg);  // the client destroys the message
  std::lock_guard lock(self.mutex_);
  self.failed_.push_back(std::move(again));
  self.last_error_ = error->ErrText ? error->ErrText : natsStatus_GetText(error->Err);
}

bool JetStreamPublisher::send(const char* subject, std::string_view payload, const char* id) {
  jsPubOptions options;
  jsPubOptions_Init(&options);
  options.MsgId = id;
  natsStatus status =
      js_PublishAsync(js_, subject, payload.data(), static_cast<int>(payload.size()), &options);
  if (status == NATS_OK) {
    sent_ = true;
    return true;
  }
  std::lock_guard lock(mutex_);
  last_error_ = natsStatus_GetText(status);
  return false;
}

void JetStreamPublisher::publish(const std::string& subject, std::string_view payload,
                                 const std::string& id) {
  // Copied only when the client refuses it: to send again later.
  if (send(subject.c_str(), payload, id.c_str())) return;
  std::lock_guard lock(mutex_);
  failed_.push_back({subject, std::string(payload), id});
}

void JetStreamPublisher::resend_failed() {
  std::vector<Unacknowledged> again;
  {
    std::lock_guard lock(mutex_);
    again.swap(failed_);
  }
  std::vector<Unacknowledged> still;
  for (Unacknowledged& message : again)
    if (!send(message.subject.c_str(), message.payload, message.id.c_str()))
      still.push_back(std::move(message));
  if (still.empty()) return;
  std::lock_guard lock(mutex_);
  for (Unacknowledged& message : still)
    failed_.push_back(std::move(message));
}

bool JetStreamPublisher::complete(Duration timeout, std::string& error) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout);
  while (true) {
    resend_failed();
    natsStatus status = NATS_OK;
    // Before the first publication went out there is nothing to wait for (and no pending list).
    if (sent_) {
      jsPubOptions wait;
      jsPubOptions_Init(&wait);
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
      wait.MaxWait = std::max<std::int64_t>(1, std::min<std::int64_t>(left, 2000));
      status = js_PublishAsyncComplete(js_, &wait);
      if (status != NATS_OK) {
        // Not acknowledged in time (the server is away): taken back, to send again.
        std::vector<Unacknowledged> pending;
        for (natsMsg* message : take_pending(js_)) {
          pending.push_back(copy_of(message));
          natsMsg_Destroy(message);
        }
        std::lock_guard lock(mutex_);
        for (Unacknowledged& message : pending)
          failed_.push_back(std::move(message));
        last_error_ = natsStatus_GetText(status);
      }
    }
    {
      std::lock_guard lock(mutex_);
      if (status == NATS_OK && failed_.empty()) return true;
      if (std::chrono::steady_clock::now() >= deadline) {
        error = std::to_string(failed_.size()) +
                " message(s) not acknowledged by the stream: " + last_error_;
        return false;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace cwf::pubsub
