// lr_segment_statistics: per (xway, dir, seg, minute) the distinct cars and the mean of the cars'
// mean speeds (SegmentSpeedHistory, the reference's block), and for every position report the
// two numbers its toll needs: the LAV over minutes m-5..m-1 and the cars of minute m-1.
//
// Minute m-1 is complete when they are read: the input is sorted by time and this actor sees
// every position report in that order, so the first report of minute m comes after the last of
// m-1 (event time, no window to close, no timer). For the same reason LAV(m) and Cars(m-1) of a
// segment cannot change during minute m: they are computed at the segment's first report of the
// minute and kept for the others. Reports leave as copies with `lav` and `cars`
// filled in; balance queries pass through in order; other tuples (daily expenditure and
// travel-time queries) are not this chain's business and are dropped.
#pragma once

#include <cstdint>
#include <vector>

#include "linear_road/car_table.hpp"
#include "linear_road/segment_speed_history.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::lr {

class SegmentStatisticsActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "tuple records (lr_source), in time order"}},
      {{"out", "position reports with lav (-1: no data) and cars; balance queries"}}};
  SegmentStatisticsActor();
  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  struct TollInputs {
    std::int32_t minute = -1;  // the minute they are for
    std::int32_t lav = -1;
    std::int32_t cars = 0;
  };

  SegmentSpeedHistory speeds_;
  std::vector<TollInputs> toll_inputs_;  // per (xway, dir, seg)
  CarTable<CarMinuteSpeeds> cars_;
};

ActorType segment_statistics_actor_type();

}  // namespace cwf::lr
