// eca_history: the event history (EVE §5.3). Appends every occurrence it receives to a file as
// one JSON line, in the order received; `cwf history` queries it by instance and type.
#pragma once

#include <string>

#include "actors/output.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::eca {

class HistorySink final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "event occurrences"}}, {}};
  HistorySink(std::string path, bool append);
  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;

  // As jsonl_sink: the file's size once durable; a resumed run cuts it back to that size.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext&) override;
  void restore_state(SnapshotReader& in, ActorContext&) override;

 private:
  std::string path_;
  bool append_;
  actors::BufferedWriter writer_;
};

ActorType history_sink_type();

}  // namespace cwf::eca
