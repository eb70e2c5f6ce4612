// nats_publish's JetStream side: publications into a stream, each with a message id the stream
// de-duplicates, acknowledged by the stream asynchronously (one round trip per checkpoint, not per
// message).
//
// Exactly once with checkpoints. A message's id is fixed by what it is in the run (the sink
// derives it from the workflow, the actor, the event's wave and its own count of messages, which
// a checkpoint keeps), so that a resumed run that publishes again what it published after the
// checkpoint uses the same ids, and the stream drops the copies (within its duplicate window,
// two minutes by default). complete() is the sink's fdatasync: at a checkpoint every message
// published so far is acknowledged by the stream, or the checkpoint is not taken.
//
// A publication the stream did not acknowledge (a timeout while the server restarts) is sent
// again, under its id, until it is or the wait ends.
#pragma once

#include <nats/nats.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "actors/pubsub/nats_connection.hpp"

namespace cwf::pubsub {

class JetStreamPublisher {
 public:
  explicit JetStreamPublisher(NatsConnection& connection);
  // Waits briefly for outstanding acknowledgements, then gives the rest up (the caller has
  // called complete() when it matters).
  ~JetStreamPublisher();
  JetStreamPublisher(const JetStreamPublisher&) = delete;
  JetStreamPublisher& operator=(const JetStreamPublisher&) = delete;

  // Hands the message to the client; one it refuses now (too many unacknowledged) is kept and
  // sent again by complete() or the next publish.
  void publish(const std::string& subject, std::string_view payload, const std::string& id);
  // Waits until the stream has acknowledged every message published so far, sending again
  // those that failed, for up to `timeout`. False with `error` set when some are still not
  // acknowledged.
  bool complete(Duration timeout, std::string& error);
  // Messages known not to be acknowledged (after a complete() that failed).
  std::size_t unacknowledged() const {
    std::lock_guard lock(mutex_);
    return failed_.size();
  }

 private:
  struct Unacknowledged {
    std::string subject, payload, id;
  };
  static Unacknowledged copy_of(natsMsg* message);
  // Called by the client for a publication that failed (on its own thread).
  static void on_error(jsCtx*, jsPubAckErr* error, void* closure);
  // Hands one publication to the client; false (last_error_ set) if it refuses it now.
  bool send(const char* subject, std::string_view payload, const char* id);
  void resend_failed();

  jsCtx* js_ = nullptr;
  mutable std::mutex mutex_;
  std::vector<Unacknowledged> failed_;  // under mutex_
  std::string last_error_;              // under mutex_
  bool sent_ = false;  // the client accepted a publication (it keeps a pending list since)
};

}  // namespace cwf::pubsub
