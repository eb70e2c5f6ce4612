// lr_accident_detection: stopped cars and accidents (AccidentTracker, the reference's block) and
// each car's movement (move_car: new trip, new segment, consecutive reports at one place).
//
// State in the actor, not engine windows: a {4 tokens, step 1, group-by car} window would keep
// four events per car and look the group up per report only to compare positions, where the run
// count of CarPosition is one integer per car that the movement rules need anyway.
//
// Only what the toll actor needs goes on: reports that enter a segment (with their movement bits
// and the segment of an accident in force 0-4 segments ahead, -1 for none) and balance queries,
// in input order. A report in the segment the car was already in changes no toll or balance.
#pragma once

#include "linear_road/accident_tracker.hpp"
#include "linear_road/car_movement.hpp"
#include "linear_road/car_table.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::lr {

class AccidentDetectionActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "tuple records in time order (lr_segment_statistics)"}},
      {{"out", "reports entering a segment (move bits, accseg: -1 none); balance queries"}}};
  AccidentDetectionActor();
  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

  const AccidentTracker& accidents() const { return accidents_; }

 private:
  AccidentTracker accidents_;
  CarTable<CarPosition> cars_;
};

ActorType accident_detection_actor_type();

}  // namespace cwf::lr
