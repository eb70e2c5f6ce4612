// nats_publish: a sink that publishes each input record as JSON on a NATS server, to a subject
// computed from the record (`orders.{/region}`), or with `jetstream` into the stream that
// captures the subject, acknowledged by it and de-duplicated by message id. Publications made while
// the server is away are kept in the connection's reconnect buffer and sent after the reconnect; at
// wrap-up the sink waits (up to `flush_timeout`) until the server has everything, so a clean end
// loses nothing.
#pragma once

#include <string>

#include "actors/pubsub/nats_sink.hpp"
#include "actors/pubsub/nats_subject_template.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::pubsub {

struct NatsPublishOptions {
  NatsConnectionOptions connection;
  SubjectTemplate subject;
  Duration flush_timeout = 10 * kSecond;
  bool jetstream = false;
};

class NatsPublish final : public NatsSink {
 public:
  static inline const ActorPorts kPorts{{{"in", "records to publish, one message each"}}, {}};
  explicit NatsPublish(NatsPublishOptions options);

  void fire(FiringContext& context) override;

  // A checkpoint waits until the server has every publication. Into a stream (`jetstream`) that
  // is exactly once: what a resumed run publishes again has the same message ids. On a plain
  // subject, at least once.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override {
    save_publications(out, context);
  }
  void restore_state(SnapshotReader& in, ActorContext&) override { restore_publications(in); }

 private:
  SubjectTemplate subject_template_;
  std::string subject_;  // scratch
};

ActorType nats_publish_type();

}  // namespace cwf::pubsub
