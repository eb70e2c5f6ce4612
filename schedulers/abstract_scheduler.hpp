// The seed's Abstract Scheduler (5.3): per actor a state (ACTIVE: may fire in this iteration,
// WAITING: has work but waits for something in the scheduler, INACTIVE: no work), an active and
// a waiting queue ordered by the policy's key, and the actor statistics. Policies supply the
// transition rules; this class keeps the bookkeeping consistent (an actor is in the queue its
// state names, or in none while it fires).
//
// A grant is a turn of up to `batch` firings: with batch 1 every decision is the seed's
// getNextActor() for one window; larger batches amortise the decision over several windows of
// the same actor, bounded by the time the policy allows it (quantum, slice) at its measured cost.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/scheduler.hpp"
#include "schedulers/actor_queue.hpp"
#include "schedulers/actor_statistics.hpp"

namespace cwf::schedulers {

enum class ActorState : std::uint8_t { inactive, active, waiting };
const char* to_string(ActorState state);

class AbstractScheduler : public Scheduler {
 public:
  void attach(std::span<const SchedulableActor> actors) override;
  void firing_ended(ActorId actor, const FiringReport& report) override;

  ActorState state(ActorId actor) const { return state_[actor]; }
  const ActorStatistics& statistics() const { return statistics_; }

 protected:
  // Called by attach() once the actors and queues are set up.
  virtual void on_attach() {}
  // The policy's part of firing_ended(), after the statistics were updated.
  virtual void on_firing_ended(ActorId actor, const FiringReport& report) = 0;

  const SchedulableActor& actor(ActorId id) const { return actors_[id]; }
  std::size_t actor_count() const { return actors_.size(); }
  bool is_source(ActorId id) const { return actors_[id].is_source; }

  void make_active(ActorId actor, double key);
  void make_waiting(ActorId actor, double key);
  void make_inactive(ActorId actor);
  // The state of an actor handed out for firing: in no queue until it reports back.
  void make_running(ActorId actor);

  // Firings that fit in `budget` ns at the actor's measured cost, between 1 and `cap` (1 before
  // the first measurement: the first firing measures).
  std::uint32_t firings_within(ActorId actor, double budget, std::uint32_t cap) const;

  ActorStatistics statistics_;
  ActorQueue active_;
  ActorQueue waiting_;
  std::vector<ActorState> state_;

 private:
  std::vector<SchedulableActor> actors_;
};

}  // namespace cwf::schedulers
