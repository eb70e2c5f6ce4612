// nats_subscribe: a source of the records published on a NATS subject (wildcards `*` and `>`),
// optionally in a queue group (each message to one member) and filtered by a `where`
// expression on the decoded record. As a replica of a dispatch group (`replica` +
// `dispatch_group`, see nats_dispatch) it receives whole workflow instances instead.
//
// Messages arrive on a cnats delivery thread, are decoded there and handed over through a
// lock-free queue; the source takes what is queued each time it fires and, when the queue is
// empty, waits for input (FiringContext::await_input): the delivery thread wakes it
// (ExternalWake) after queueing a message, so an idle source costs no firing and no worker.
// It ends after `count` records, at the first record for which `until` holds, or when the run
// is stopped (--for, Ctrl-C).
//
// With `stream` and `durable` it reads a JetStream stream through a durable consumer instead
// (JetStreamConsumer): nothing is lost while the workflow is down, and a checkpoint keeps its
// position in the stream, so a resumed run goes on exactly from there.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "actors/pubsub/jetstream_consumer.hpp"
#include "actors/pubsub/nats_connection.hpp"
#include "actors/pubsub/nats_inbox.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::pubsub {

struct NatsReplicaOptions {
  std::string name;   // this replica's name, unique in its group
  std::string group;  // the dispatch group (a NATS queue group for the claims)
  std::string prefix = "cwf.dispatch";
};

struct NatsSubscribeOptions {
  NatsConnectionOptions connection;
  std::string subject;  // empty for a replica: its own replica subject
  std::string queue;    // queue group; empty: every subscriber gets every message
  std::optional<Expression> where;
  std::optional<std::int64_t> count;
  std::optional<Expression> until;
  std::int64_t batch = 1024;
  std::int64_t max_pending = 65536;
  std::optional<NatsReplicaOptions> replica;
  std::optional<JetStreamConsumerOptions> jetstream;
};

class NatsSubscribe final : public Actor {
 public:
  static inline const ActorPorts kPorts{{}, {{"out", "the decoded records"}}};
  static constexpr int kOut = 0;

  explicit NatsSubscribe(NatsSubscribeOptions options);
  ~NatsSubscribe() override;

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  bool postfire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;

  // A JetStream source keeps its position in the stream; a plain subscription cannot be replayed.
  Checkpointing checkpointing() const override {
    return options_.jetstream ? Checkpointing::own : Checkpointing::unsupported;
  }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;
  void checkpoint_committed(ActorContext& context) override;

  // The server had the subscription when initialize ended (false while the broker was not up
  // then: the subscription is sent when the connection comes up). Any thread.
  bool subscribed() const;
  // initialize has run: the connection exists (connected or still trying). Any thread.
  bool initialized() const { return initialized_.load(std::memory_order_acquire); }
  // Messages dropped because max_pending were already waiting (any thread).
  std::uint64_t shed() const;
  std::uint64_t received() const;
  // Instances this replica took (answered claims for).
  std::uint64_t claimed() const;
  // The open connection while the actor runs (null before initialize and after wrap-up); any
  // thread, for looking at its reconnect counters.
  const NatsConnection* connection() const {
    return connection_view_.load(std::memory_order_acquire);
  }

  using Inbox = NatsInbox;  // shared with the delivery threads

 private:
  // `restart_after`: a JetStream source's position in a resumed run.
  void subscribe(ActorContext& context, std::optional<std::uint64_t> restart_after);
  // A JetStream source's consumer, once the server answers (a minute at most).
  void open_consumer(ActorContext& context, std::optional<std::uint64_t> restart_after);
  void close_subscriptions();
  // Reports the messages dropped over max_pending since the last report.
  void report_shed(ActorContext& context);

  NatsSubscribeOptions options_;
  std::unique_ptr<NatsConnection> connection_;
  std::atomic<const NatsConnection*> connection_view_{nullptr};
  std::shared_ptr<Inbox> inbox_;
  natsSubscription* subscription_ = nullptr;
  natsSubscription* claims_ = nullptr;
  std::unique_ptr<JetStreamConsumer> consumer_;
  // JetStream: the stream sequence of the last message taken, that message (acknowledged once
  // what it covers is safe), and the one a checkpoint being written covers.
  std::uint64_t last_sequence_ = 0;
  NatsMessage last_message_, checkpointed_message_;
  std::int64_t emitted_ = 0;
  std::uint64_t shed_reported_ = 0;
  bool done_ = false;
  std::atomic<bool> subscribed_{false}, initialized_{false};
};

// The subjects of a dispatch group: where dispatchers send claims, and where a replica gets its
// instances' events.
std::string claim_subject(const std::string& prefix, const std::string& group);
std::string replica_subject(const std::string& prefix, const std::string& group,
                            const std::string& replica);

ActorType nats_subscribe_type();

}  // namespace cwf::pubsub
