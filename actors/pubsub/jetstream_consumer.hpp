// nats_subscribe's JetStream side: a durable pull consumer on a stream, fetched by a thread of its
// own into the source's inbox (NatsInbox), with explicit acknowledgements.
//
// Position. Each message carries its sequence in the stream. The source remembers the last one it
// took (emitted, filtered out or refused alike) and a checkpoint keeps it. A resumed run makes the
// consumer anew to start right after it: the messages come again in the stream's order, exactly
// from where the checkpoint stood, whatever the consumer had handed to the crashed run. A
// message at or below that sequence (a redelivery after `ack_wait`) is skipped.
//
// Acknowledgement. The consumer acknowledges with AckAll: acknowledging a message acknowledges
// every earlier one. A run that takes checkpoints acknowledges only what a committed checkpoint
// covers (Actor::checkpoint_committed); one that does not, what it has emitted.
//
// Back-pressure. A stream can wait: the thread fetches no more while `max_pending` messages wait
// in the inbox, and the server hands out no more than `max_ack_pending` unacknowledged ones.
#pragma once

#include <nats/nats.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "actors/pubsub/nats_connection.hpp"
#include "actors/pubsub/nats_inbox.hpp"

namespace cwf::pubsub {

struct JetStreamConsumerOptions {
  std::string stream;
  std::string durable;
  bool deliver_new = false;  // a consumer made afresh starts at the stream's next message
  Duration ack_wait = 30 * kSecond;
  std::int64_t max_ack_pending = 65536;
  std::int64_t fetch_batch = 256;
};

class JetStreamConsumer {
 public:
  // Consumes `subject` (a filter on the stream) through the durable consumer, made anew to
  // start after stream sequence `restart_after` (a checkpoint's position); without it, after
  // what the durable had acknowledged, or for a durable that does not exist yet, at the stream's
  // start (`deliver_new`: its next message). Throws NatsError for what may pass (the server
  // away, JetStream still starting), std::runtime_error for what the server refused.
  JetStreamConsumer(NatsConnection& connection, const std::string& subject,
                    const JetStreamConsumerOptions& options, std::shared_ptr<NatsInbox> inbox,
                    std::optional<std::uint64_t> restart_after);
  // Stops fetching; the durable stays on the server. The messages it fetched must be gone
  // first (acknowledging one needs its subscription).
  ~JetStreamConsumer();
  JetStreamConsumer(const JetStreamConsumer&) = delete;
  JetStreamConsumer& operator=(const JetStreamConsumer&) = delete;

  // Acknowledges `message` and every earlier one (AckAll). False if it could not be sent (the
  // server is away): the consumer hands them out again after ack_wait, and they are skipped.
  static bool acknowledge(natsMsg* message);
  // Fetches no more (what was fetched can still be acknowledged). Idempotent.
  void stop();
  // The stream sequence it started after: every message up to it counts as taken.
  std::uint64_t start_after() const { return start_after_; }

 private:
  void fetch_loop();

  JetStreamConsumerOptions options_;
  std::shared_ptr<NatsInbox> inbox_;
  jsCtx* js_ = nullptr;
  natsSubscription* subscription_ = nullptr;
  std::uint64_t start_after_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread fetcher_;
};

}  // namespace cwf::pubsub
