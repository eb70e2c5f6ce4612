#include "linear_road/segment_statistics_actor.hpp"

#include "actors/actor_type_util.hpp"
#include "linear_road/workflow_events.hpp"
#include "runtime/snapshot/trivial_array_snapshot.hpp"

namespace cwf::lr {

SegmentStatisticsActor::SegmentStatisticsActor() : Actor(kPorts) {}

void SegmentStatisticsActor::initialize(ActorContext&) {
  speeds_ = SegmentSpeedHistory();
  cars_ = CarTable<CarMinuteSpeeds>();
  toll_inputs_.clear();
}

void SegmentStatisticsActor::save_state(SnapshotWriter& out, ActorContext&) {
  speeds_.save(out);
  write_trivial_array(out, std::span<const TollInputs>(toll_inputs_));
  cars_.save(out);
}

void SegmentStatisticsActor::restore_state(SnapshotReader& in, ActorContext&) {
  speeds_.restore(in);
  toll_inputs_ = read_trivial_array<TollInputs>(in, "the segments' toll inputs");
  cars_.restore(in);
}

void SegmentStatisticsActor::fire(FiringContext& context) {
  for (std::size_t i = 0; i < context.window().size(); ++i) {
    Value tuple = context.take(i);
    if (!is_tuple_else_report(tuple, context)) continue;
    auto s = tuple.slots();
    std::int64_t type = s[kTupleType].as_int();
    if (type == static_cast<std::int64_t>(InputType::account_balance)) {
      context.emit(std::move(tuple));
      continue;
    }
    if (type != static_cast<std::int64_t>(InputType::position_report)) continue;
    auto field = [&](int slot) { return static_cast<std::int32_t>(s[slot].as_int()); };
    const std::int32_t xway = field(kTupleXway), dir = field(kTupleDir), seg = field(kTupleSeg);
    const std::int32_t minute = minute_of(field(kTupleTime));
    speeds_.add(cars_[field(kTupleCarid)], xway, dir, seg, minute, field(kTupleSpeed));
    auto cell = static_cast<std::size_t>((xway * 2 + dir) * SegmentSpeedHistory::kSegments + seg);
    if (cell >= toll_inputs_.size()) toll_inputs_.resize(cell + 1);
    TollInputs& inputs = toll_inputs_[cell];
    if (inputs.minute != minute)
      inputs = TollInputs{minute, speeds_.lav(xway, dir, seg, minute).value_or(-1),
                          speeds_.cars(xway, dir, seg, minute - 1)};
    set_slots(tuple, kTupleLav, inputs.lav, kTupleCars, inputs.cars);
    context.emit(std::move(tuple));
  }
}

ActorType segment_statistics_actor_type() {
  return actors::make_type(
      "lr_segment_statistics",
      "Linear Road segment statistics: adds to every position report the LAV of minutes "
      "m-5..m-1 and the distinct cars of minute m-1 in its segment; passes balance queries on.",
      {}, SegmentStatisticsActor::kPorts, [](const Params&) -> std::unique_ptr<Actor> {
        return std::make_unique<SegmentStatisticsActor>();
      });
}

}  // namespace cwf::lr
