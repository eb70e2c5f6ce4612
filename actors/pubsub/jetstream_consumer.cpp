#include "actors/pubsub/jetstream_consumer.hpp"

#include <chrono>

namespace cwf::pubsub {

namespace {

// A server that answered with a JetStream error (`code`) is a lasting problem; a status alone
// (a timeout, no responders while JetStream starts, a connection lost) may pass: NatsError.
[[noreturn]] void fail(const std::string& what, natsStatus status, jsErrCode code) {
  if (code == 0) throw NatsError(what, status);
  std::string text = what + ": " + natsStatus_GetText(status);
  if (const char* last = nats_GetLastError(nullptr); last && *last)
    text += " (" + std::string(last) + ")";
  throw std::runtime_error(text + " [JetStream error " + std::to_string(static_cast<int>(code)) +
                           "]");
}

}  // namespace

JetStreamConsumer::JetStreamConsumer(NatsConnection& connection, const std::string& subject,
                                     const JetStreamConsumerOptions& options,
                                     std::shared_ptr<NatsInbox> inbox,
                                     std::optional<std::uint64_t> restart_after)
    : options_(options), inbox_(std::move(inbox)) {
  jsOptions js_options;
  jsOptions_Init(&js_options);
  natsStatus status = natsConnection_JetStream(&js_, connection.get(), &js_options);
  if (status != NATS_OK) throw NatsError("JetStream", status);
  try {
    const char* stream = options_.stream.c_str();
    const char* durable = options_.durable.c_str();
    jsErrCode code = static_cast<jsErrCode>(0);
    jsStreamInfo* stream_info = nullptr;
    status = js_GetStreamInfo(&stream_info, js_, stream, nullptr, &code);
    if (status != NATS_OK) {
      if (code == JSStreamNotFoundErr)
        throw std::runtime_error("JetStream has no stream '" + options_.stream +
                                 "': create it first (its subjects must cover '" + subject + "')");
      fail("cannot look up the stream '" + options_.stream + "'", status, code);
    }
    const std::uint64_t stream_last = stream_info->State.LastSeq;
    jsStreamInfo_Destroy(stream_info);
    if (restart_after) {
      start_after_ = *restart_after;
    } else {
      jsConsumerInfo* info = nullptr;
      code = static_cast<jsErrCode>(0);
      status = js_GetConsumerInfo(&info, js_, stream, durable, nullptr, &code);
      if (status == NATS_OK) {
        start_after_ = info->AckFloor.Stream;  // what an earlier run acknowledged
        jsConsumerInfo_Destroy(info);
      } else if (code == JSConsumerNotFoundErr) {
        start_after_ = options_.deliver_new ? stream_last : 0;
      } else {
        fail("cannot look up the durable consumer '" + options_.durable + "' of stream '" +
                 options_.stream + "'",
             status, code);
      }
    }
    // Made anew at that position: what an earlier run was handed and did not acknowledge comes
    // again, in the stream's order (a consumer left as it was would hand out its later messages
    // first, and those only after ack_wait).
    code = static_cast<jsErrCode>(0);
    status = js_DeleteConsumer(js_, stream, durable, nullptr, &code);
    if (status != NATS_OK && code != JSConsumerNotFoundErr)
      fail("cannot reset the durable consumer '" + options_.durable + "' of stream '" +
               options_.stream + "'",
           status, code);
    jsConsumerConfig config;
    jsConsumerConfig_Init(&config);
    config.Durable = durable;
    config.FilterSubject = subject.c_str();
    config.AckPolicy = js_AckAll;
    config.AckWait = options_.ack_wait;
    config.MaxAckPending = options_.max_ack_pending;
    if (start_after_ > 0) {
      config.DeliverPolicy = js_DeliverByStartSequence;
      config.OptStartSeq = start_after_ + 1;
    } else {
      config.DeliverPolicy = js_DeliverAll;
    }
    jsConsumerInfo* made = nullptr;
    code = static_cast<jsErrCode>(0);
    status = js_AddConsumer(&made, js_, stream, &config, nullptr, &code);
    if (status != NATS_OK)
      fail("cannot make the durable consumer '" + options_.durable + "' of stream '" +
               options_.stream + "'",
           status, code);
    jsConsumerInfo_Destroy(made);
    // Bound to the consumer, not made by the subscription: unsubscribing leaves it on the server.
    jsSubOptions sub_options;
    jsSubOptions_Init(&sub_options);
    sub_options.Stream = stream;
    sub_options.Consumer = durable;
    code = static_cast<jsErrCode>(0);
    status = js_PullSubscribe(&subscription_, js_, subject.c_str(), durable, nullptr, &sub_options,
                              &code);
    if (status != NATS_OK)
      fail("cannot bind to the durable consumer '" + options_.durable + "' of stream '" +
               options_.stream + "'",
           status, code);
  } catch (...) {
    jsCtx_Destroy(js_);
    throw;
  }
  fetcher_ = std::thread([this] { fetch_loop(); });
}

void JetStreamConsumer::stop() {
  stopping_.store(true, std::memory_order_release);
  if (fetcher_.joinable()) fetcher_.join();
}

JetStreamConsumer::~JetStreamConsumer() {
  stop();
  // Destroyed without unsubscribing: the durable and what it has handed out stay as they are.
  natsSubscription_Destroy(subscription_);
  jsCtx_Destroy(js_);
}

void JetStreamConsumer::fetch_loop() {
  constexpr std::int64_t kFetchWaitMs = 100;  // how soon a stop is noticed
  while (!stopping_.load(std::memory_order_acquire)) {
    std::size_t waiting = inbox_->queue.size_approx();
    if (waiting >= inbox_->max_pending) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    int batch = static_cast<int>(std::min<std::int64_t>(
        options_.fetch_batch, static_cast<std::int64_t>(inbox_->max_pending - waiting)));
    natsMsgList list{};
    jsErrCode code = static_cast<jsErrCode>(0);
    natsStatus status = natsSubscription_Fetch(&list, subscription_, batch, kFetchWaitMs, &code);
    if (status != NATS_OK) {
      // Nothing new (a timeout), or the server is away: its reconnection is the connection's
      // business; fetching goes on once it is back.
      natsMsgList_Destroy(&list);
      if (status != NATS_TIMEOUT) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    for (int i = 0; i < list.Count; ++i) {
      natsMsg* message = list.Msgs[i];
      list.Msgs[i] = nullptr;
      NatsInbox::Item item = inbox_->decode(message);
      // From the reply subject the consumer set (natsMsg_GetSequence is for messages read
      // directly from the stream).
      jsMsgMetaData* meta = nullptr;
      if (natsMsg_GetMetaData(&meta, message) == NATS_OK) {
        item.stream_sequence = meta->Sequence.Stream;
        jsMsgMetaData_Destroy(meta);
      }
      item.message.reset(message);
      inbox_->push(std::move(item));
    }
    natsMsgList_Destroy(&list);
  }
}

bool JetStreamConsumer::acknowledge(natsMsg* message) {
  return message && natsMsg_Ack(message, nullptr) == NATS_OK;
}

}  // namespace cwf::pubsub
