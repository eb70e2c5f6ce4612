#include "actors/pubsub/jetstream_publisher.hpp"

#include <chrono>
#include <thread>

namespace cwf::pubsub {

namespace {

constexpr const char* kMessageIdHeader = "Nats-Msg-Id";

// Takes back every publication still waiting for its acknowledgement. Only for a context that
// has published: the client keeps no list of pending publications before (and asking for it
// then crashes, cnats 3.4).
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
  jsPubOptions wait;
  jsPubOptions_Init(&wait);
  wait.MaxWait = 1000;
  if (sent_) {
    js_PublishAsyncComplete(js_, &wait);
    for (natsMsg* message : take_pending(js_))
      natsMsg_Destroy(message);
  }
  jsCtx_Destroy(js_);
}

void JetStreamPublisher::on_error(jsCtx*, jsPubAckErr* error, void* closure) {
  auto& self = *static_cast<JetStreamPublisher*>(closure);
  natsMsg* message = error->Msg;
  const char* id = nullptr;
  natsMsgHeader_Get(message, kMessageIdHeader, &id);
  std::lock_guard lock(self.mutex_);
  self.failed_.push_back({natsMsg_GetSubject(message),
                          std::string(natsMsg_GetData(message),
                                      static_cast<std::size_t>(natsMsg_GetDataLength(message))),
                          id ? id : ""});
  self.last_error_ = error->ErrText ? error->ErrText : natsStatus_GetText(error->Err);
}

bool JetStreamPublisher::send(Unacknowledged& message) {
  jsPubOptions options;
  jsPubOptions_Init(&options);
  options.MsgId = message.id.c_str();
  natsStatus status = js_PublishAsync(js_, message.subject.c_str(), message.payload.data(),
                                      static_cast<int>(message.payload.size()), &options);
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
  Unacknowledged message{subject, std::string(payload), id};
  if (!send(message)) {
    std::lock_guard lock(mutex_);
    failed_.push_back(std::move(message));
  }
}

void JetStreamPublisher::resend_failed() {
  std::vector<Unacknowledged> again;
  {
    std::lock_guard lock(mutex_);
    again.swap(failed_);
  }
  std::vector<Unacknowledged> still;
  for (Unacknowledged& message : again) {
    ++resent_;
    if (!send(message)) still.push_back(std::move(message));
  }
  if (still.empty()) return;
  std::lock_guard lock(mutex_);
  for (Unacknowledged& message : still)
    failed_.push_back(std::move(message));
}

bool JetStreamPublisher::complete(Duration timeout, std::string& error) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout);
  while (true) {
    resend_failed();
    if (!sent_) {
      // Nothing went out yet: nothing to wait for but time (the server refuses everything).
      std::lock_guard lock(mutex_);
      if (failed_.empty()) return true;
      if (std::chrono::steady_clock::now() >= deadline) {
        error = std::to_string(failed_.size()) + " message(s) not sent: " + last_error_;
        return false;
      }
    }
    if (!sent_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    jsPubOptions wait;
    jsPubOptions_Init(&wait);
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    wait.MaxWait = std::max<std::int64_t>(1, std::min<std::int64_t>(left, 2000));
    natsStatus status = js_PublishAsyncComplete(js_, &wait);
    if (status == NATS_OK) {
      std::lock_guard lock(mutex_);
      if (failed_.empty()) return true;
    } else {
      // Not acknowledged in time (the server is away): take them back, to send again.
      std::vector<natsMsg*> pending = take_pending(js_);
      std::lock_guard lock(mutex_);
      for (natsMsg* message : pending) {
        const char* id = nullptr;
        natsMsgHeader_Get(message, kMessageIdHeader, &id);
        failed_.push_back({natsMsg_GetSubject(message),
                           std::string(natsMsg_GetData(message),
                                       static_cast<std::size_t>(natsMsg_GetDataLength(message))),
                           id ? id : ""});
        natsMsg_Destroy(message);
      }
      last_error_ = natsStatus_GetText(status);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      std::lock_guard lock(mutex_);
      error = std::to_string(failed_.size()) +
              " message(s) not acknowledged by the stream: " + last_error_;
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace cwf::pubsub
