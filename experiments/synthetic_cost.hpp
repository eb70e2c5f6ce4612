// Synthetic cost: busy work added to every firing of an actor of a loaded workflow, so that an
// experiment can give an actor the cost it had in another engine (the seed's Kepler actors took
// hundreds of microseconds a tuple; ours take about one). The decorator owns the wrapped actor,
// declares the same ports, forwards the whole lifecycle to it and then spins on the CPU (no
// sleep: the worker stays busy, as with real work). The director measures the spin as the
// actor's cost, so policies see it like any other cost.
#pragma once

#include <atomic>
#include <memory>

#include "runtime/actor/actor.hpp"
#include "runtime/graph/workflow.hpp"
#include "runtime/time/clock.hpp"

namespace cwf::experiments {

// Spins for `duration` nanoseconds of steady-clock time.
void busy_wait(Duration duration);

class SyntheticCostActor final : public Actor {
 public:
  // `off`, when given and set, turns the busy work off (an experiment drains at full speed once
  // its measurement ends).
  SyntheticCostActor(std::unique_ptr<Actor> inner, Duration per_firing,
                     const std::atomic<bool>* off = nullptr);

  Actor& inner() { return *inner_; }
  Duration per_firing() const { return per_firing_; }

  void initialize(ActorContext& context) override { inner_->initialize(context); }
  bool prefire(FiringContext& context) override { return inner_->prefire(context); }
  void fire(FiringContext& context) override;
  bool postfire(FiringContext& context) override { return inner_->postfire(context); }
  void wrapup(ActorContext& context) override { inner_->wrapup(context); }

 private:
  std::unique_ptr<Actor> inner_;
  Duration per_firing_;
  const std::atomic<bool>* off_;
};

// Wraps the actor named `actor` of `workflow` (before the workflow runs). Throws
// std::invalid_argument when the workflow has no such actor or the cost is negative.
void add_synthetic_cost(Workflow& workflow, const std::string& actor, Duration per_firing,
                        const std::atomic<bool>* off = nullptr);

// The actor itself, seen through any synthetic-cost decorators.
Actor& unwrap(Actor& actor);

}  // namespace cwf::experiments
