// eca_detector: detects composite events over a stream of occurrences and emits each composite
// occurrence (with its component occurrences) of the event types it is asked for.
#pragma once

#include <memory>
#include <vector>

#include "actors/eca/event_detector.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::eca {

class DetectorActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "event occurrences"}},
      {{"out", "occurrences of the composite events asked for, with their components"}}};
  DetectorActor(std::shared_ptr<const DetectorGraph> graph, std::vector<int> outputs,
                DetectorOptions options);
  void fire(FiringContext& context) override;

  // The detector's state: what each instance holds, the pending deadlines, the site's next id.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext&) override { detector_.save(out); }
  void restore_state(SnapshotReader& in, ActorContext&) override { detector_.restore(in); }

 private:
  EventDetector detector_;
  std::vector<bool> is_output_;  // per node
};

ActorType detector_actor_type();

}  // namespace cwf::eca
