// eca_time_events: time events (EVE §3.2) from the workflow clock: absolute (at given times),
// relative (a delay after the workflow starts) and periodic (every interval). The source asks the
// director to fire it again at the next event's time (`fire_again_at`) and never sleeps, so on a
// virtual clock the events come at once and in order. They also keep time moving for the
// detectors' absence (REP) deadlines when nothing else happens.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::eca {

struct TimeEventSchedule {
  std::vector<Timestamp> at;          // absolute
  std::optional<Duration> after;      // relative to the first firing
  std::optional<Duration> every;      // periodic, from the first firing
  std::optional<std::int64_t> count;  // periodic events; unset: until the run stops
};

class TimeEventsActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{{}, {{"out", "TIME(name) occurrences"}}};
  TimeEventsActor(std::string name, TimeEventSchedule schedule);
  void fire(FiringContext& context) override;
  bool postfire(FiringContext& context) override;

  // Which events are still to come, and the clock site's next occurrence id.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext&) override;
  void restore_state(SnapshotReader& in, ActorContext&) override;

 private:
  // Whether periodic events remain to be emitted.
  bool periodic_left() const;

  std::string type_;
  TimeEventSchedule schedule_;
  bool started_ = false;
  std::vector<Timestamp> pending_;  // one-off times not yet emitted, latest first
  Timestamp next_periodic_ = 0;
  std::int64_t periodic_emitted_ = 0;
  std::atomic<std::int64_t>* ids_;
};

ActorType time_events_type();

}  // namespace cwf::eca
