// jsonl_sink: writes each token as one line of JSON (records as objects).
#pragma once

#include <string>

#include "actors/output.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

class JsonlSink final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "tokens to write, one line each"}}, {}};
  explicit JsonlSink(std::string path);

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  // The size of the file written (exactly once: a resumed run cuts it back to the checkpoint).
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  std::string path_;
  BufferedWriter writer_;
};

ActorType jsonl_sink_type();

}  // namespace cwf::actors
