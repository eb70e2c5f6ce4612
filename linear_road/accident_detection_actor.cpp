#include "linear_road/accident_detection_actor.hpp"

#include "actors/actor_type_util.hpp"
#include "linear_road/workflow_events.hpp"

namespace cwf::lr {

AccidentDetectionActor::AccidentDetectionActor() : Actor(kPorts) {}

void AccidentDetectionActor::initialize(ActorContext&) {
  accidents_ = AccidentTracker();
  cars_ = CarTable<CarPosition>();
}

void AccidentDetectionActor::save_state(SnapshotWriter& out, ActorContext&) {
  accidents_.save(out);
  cars_.save(out);
}

void AccidentDetectionActor::restore_state(SnapshotReader& in, ActorContext&) {
  accidents_.restore(in);
  cars_.restore(in);
}

void AccidentDetectionActor::fire(FiringContext& context) {
  for (std::size_t i = 0; i < context.window().size(); ++i) {
    Value tuple = context.take(i);
    if (!is_tuple_else_report(tuple, context)) continue;
    if (slot_int(tuple, kTupleType) != static_cast<std::int64_t>(InputType::position_report)) {
      context.emit(std::move(tuple));
      continue;
    }
    const InputRecord r = read_tuple(tuple);
    CarPosition& car = cars_[r.carid];
    CarMove move = move_car(car, r, AccidentTracker::kStoppedReports);
    if (move.left_stop)
      accidents_.left(r.carid, move.stop.xway, move.stop.dir, move.stop.lane, move.stop.pos);
    accidents_.report(r.carid, r.time, r.xway, r.dir, r.lane, r.seg, r.pos, car.run);
    if (!move.new_segment) continue;
    std::int64_t bits = kMoveNewSegment | (move.new_trip ? kMoveNewTrip : 0) |
                        (move.first_report ? kMoveFirstReport : 0);
    std::int64_t accident_seg = -1;
    if (r.lane != kExitLane)
      if (const auto* accident = accidents_.ahead(r.xway, r.dir, r.seg, minute_of(r.time)))
        accident_seg = accident->seg;
    set_slots(tuple, kTupleMove, bits, kTupleAccidentSeg, accident_seg);
    context.emit(std::move(tuple));
  }
}

ActorType accident_detection_actor_type() {
  return actors::make_type(
      "lr_accident_detection",
      "Linear Road stopped cars (4 identical reports) and accidents (2 stopped cars at one "
      "place); passes on reports that enter a segment, with the accident ahead, and balance "
      "queries.",
      {}, AccidentDetectionActor::kPorts, [](const Params&) -> std::unique_ptr<Actor> {
        return std::make_unique<AccidentDetectionActor>();
      });
}

}  // namespace cwf::lr
