// The quantum priority-based scheduler, QBS (seed 5.4.1, after the Linux O(1) scheduler).
//
// Each actor has a designer-given priority p (lower is more important) and, on every
// re-quantification, gets q = (40 - p)·b µs for p >= 20 or (40 - p)·4b µs for p < 20, where b is
// the basic quantum. Actors with work are ACTIVE while their balance is positive, ordered by
// ascending priority (first come, first served within a priority, and an actor that still has
// work after its turn goes behind its equals); WAITING once it is used up. When no actor with
// work has quantum left, every waiting actor gets its quantum added (an overdraft is carried, so
// a large one can leave it WAITING) and the waiting queue becomes the active queue. An actor that
// runs out of work goes INACTIVE and keeps what is left of its quantum.
//
// Sources (see SourceTurns) fire after every `source_interval` internal firings, once per
// iteration, when they have quantum; they are never ordered with the other actors, and a source's
// unused quantum does not hold back a re-quantification the internal actors wait for. A source
// waiting for its next firing time (a paced source) is INACTIVE until its timer wakes it.
#pragma once

#include "schedulers/abstract_scheduler.hpp"
#include "schedulers/source_turns.hpp"

namespace cwf::schedulers {

struct QbsOptions : PacedTurnOptions {
  Duration basic_quantum = 500 * kMicrosecond;  // b
};

class QbsScheduler final : public AbstractScheduler {
 public:
  explicit QbsScheduler(QbsOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "qbs"; }
  void actor_got_work(ActorId actor) override;
  std::optional<Grant> next_actor() override;
  void iteration_ended() override;

  // The quantum an actor of priority p gets on each re-quantification (ns). Priorities are
  // clamped to 0..39, the range in which the formula gives a positive quantum.
  static Duration quantum_for(int priority, Duration basic_quantum);
  Duration balance(ActorId actor) const { return balance_[actor]; }
  std::uint64_t requantifications() const { return requantifications_; }

 private:
  void on_attach() override;
  void on_firing_ended(ActorId actor, const FiringReport& report) override;
  double key(ActorId id) const { return actor(id).priority; }
  void requantify();

  QbsOptions options_;
  SourceTurns sources_;
  std::vector<Duration> balance_;
  std::uint64_t requantifications_ = 0;
};

}  // namespace cwf::schedulers
