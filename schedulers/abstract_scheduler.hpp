// The seed's Abstract Scheduler (5.3): per actor a state (ACTIVE: may fire in this iteration,
// WAITING: has work but waits for something in the scheduler, INACTIVE: no work), an active and
// a waiting queue ordered by the policy's key, and the actor statistics. Policies supply the
// transition rules; this class owns the bookkeeping and keeps it consistent (an actor is in the
// queue its state names, or in none while it fires: RUNNING) by checking every transition.
//
// A grant is a turn of up to `batch` firings: with batch 1 every decision is the seed's
// getNextActor() for one window; larger batches amortise the decision over several windows of
// the same actor, bounded by the time the policy allows it (quantum, slice) at its measured cost.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/execution/scheduler.hpp"
#include "schedulers/actor_queue.hpp"
#include "schedulers/actor_statistics.hpp"

namespace cwf::schedulers {

// RUNNING: handed out for firing, in no queue until it reports back.
enum class ActorState : std::uint8_t { inactive, active, waiting, running };
const char* to_string(ActorState state);

// The turn sizes of every policy built on AbstractScheduler, with their defaults (stated once).
struct TurnOptions {
  std::uint32_t batch = 64;         // most windows per turn
  std::uint32_t source_batch = 64;  // source firings per turn
};
// Policies that pace their sources between internal firings (SourceTurns).
struct PacedTurnOptions : TurnOptions {
  std::uint32_t source_interval = 5;  // internal firings between source turns (x)
};

// Thrown on a state transition the model does not have (a policy's bug): the bookkeeping would
// otherwise go wrong silently, an actor lost from every queue or fired twice at once.
class SchedulerStateError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

class AbstractScheduler : public Scheduler {
 public:
  void attach(std::span<const SchedulableActor> actors) override;
  void firing_ended(ActorId actor, const FiringReport& report) override;

  ActorState state(ActorId actor) const { return state_[actor]; }
  const ActorStatistics& statistics() const { return statistics_; }

 protected:
  // Called by attach() once the actors and queues are set up.
  virtual void on_attach() {}
  // The policy's part of firing_ended(), after the statistics were updated and the actor left
  // RUNNING (it is INACTIVE until the policy says otherwise).
  virtual void on_firing_ended(ActorId actor, const FiringReport& report) = 0;

  const SchedulableActor& actor(ActorId id) const { return actors_[id]; }
  std::size_t actor_count() const { return actors_.size(); }
  bool is_source(ActorId id) const { return actors_[id].is_source; }

  // Transitions of an internal actor, each checked (SchedulerStateError):
  //   INACTIVE → ACTIVE | WAITING (it got work), WAITING → ACTIVE (a new quantum, slice or
  //   period), ACTIVE → WAITING, → INACTIVE from any state but RUNNING, and the first ACTIVE
  //   actor → RUNNING (take_active). An ACTIVE or WAITING actor may be queued again with a new
  //   key.
  void make_active(ActorId actor, double key);
  void make_waiting(ActorId actor, double key);
  void make_inactive(ActorId actor);
  // Pops the first ACTIVE actor and makes it RUNNING.
  std::optional<ActorId> take_active();
  bool has_queued() const { return !active_.empty() || !waiting_.empty(); }
  bool has_waiting() const { return !waiting_.empty(); }
  // The WAITING actors, first to last (a copy: the caller may change their states).
  std::vector<ActorId> waiting_actors() const { return waiting_.actors(); }

  // Sources of policies that pace them (SourceTurns) are in no queue: their state is a label
  // (ACTIVE: may take a turn, WAITING: not in this iteration, INACTIVE: no work). Checked: the
  // actor is a source and not RUNNING.
  void label_source(ActorId source, ActorState state);
  // A source that SourceTurns handed a turn: from any state but RUNNING.
  void run_source(ActorId source);

  // Firings that fit in `budget` ns at the actor's measured cost, between 1 and `cap` (1 before
  // the first measurement: the first firing measures).
  std::uint32_t firings_within(ActorId actor, double budget, std::uint32_t cap) const;
  // Samples the queue lengths for the statistics (once per iteration).
  void sample_statistics();

 private:
  [[noreturn]] void illegal(ActorId actor, ActorState to) const;

  ActorStatistics statistics_;
  ActorQueue active_;
  ActorQueue waiting_;
  std::vector<ActorState> state_;
  std::vector<SchedulableActor> actors_;
};

}  // namespace cwf::schedulers
