// Helpers for the broker actor tests: registries with the pub/sub actors, a scripted source that
// emits at given times of a virtual clock, and running a workflow under the scheduled director.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "actors/pubsub/register_actors.hpp"
#include "actors/register.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "schedulers/fifo_scheduler.hpp"
#include "schedulers/register.hpp"

namespace cwf::pubsub::testing {

inline const ActorRegistry& actor_registry() {
  static const ActorRegistry* r = [] {
    auto* registry = new ActorRegistry();
    actors::register_all(*registry);
    register_actors(*registry);
    return registry;
  }();
  return *r;
}

inline const SchedulerRegistry& scheduler_registry() {
  static const SchedulerRegistry* r = [] {
    auto* registry = new SchedulerRegistry();
    schedulers::register_all(*registry);
    return registry;
  }();
  return *r;
}

inline LoadContext load_context() {
  return {actor_registry(), scheduler_registry()};
}

// Emits each token when the workflow clock reaches its time. On a virtual clock the clock only
// jumps to the next time when nothing else is left to do, so the groups of tokens at different
// times are processed one after the other: a phase settles before the next begins.
class Script final : public Actor {
 public:
  explicit Script(std::vector<std::pair<Timestamp, Value>> items) : items_(std::move(items)) {
    add_output("out");
  }
  void fire(FiringContext& context) override {
    Timestamp now = context.clock().now();
    while (next_ < items_.size() && items_[next_].first <= now) {
      context.set_output_time(items_[next_].first);
      context.emit(items_[next_].second);
      ++next_;
    }
    if (next_ < items_.size()) context.fire_again_at(items_[next_].first);
  }
  bool postfire(FiringContext&) override { return next_ < items_.size(); }

 private:
  std::vector<std::pair<Timestamp, Value>> items_;
  std::size_t next_ = 0;
};

// Emits, in the n-th run of its workflow, the tokens of phase n. Running a workflow once per phase
// lets each phase settle (a run ends when the workflow is quiescent) whatever the number of
// workers; actors keep their state from one run to the next.
class PhasedScript final : public Actor {
 public:
  explicit PhasedScript(std::vector<std::vector<Value>> phases) : phases_(std::move(phases)) {
    add_output("out");
  }
  void initialize(ActorContext&) override {
    ++phase_;
    next_ = 0;
  }
  void fire(FiringContext& context) override {
    if (!pending()) return;
    context.emit(phases_[phase_][next_++]);
  }
  bool postfire(FiringContext&) override { return pending(); }

 private:
  bool pending() const { return phase_ < phases_.size() && next_ < phases_[phase_].size(); }
  std::vector<std::vector<Value>> phases_;
  std::size_t phase_ = static_cast<std::size_t>(-1);
  std::size_t next_ = 0;
};

inline RunSummary run_on_virtual_clock(Workflow& workflow, unsigned workers) {
  VirtualClock clock(0);
  ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>(), workers);
  return run_workflow(workflow, director, clock);
}

inline std::uint64_t errors(const RunSummary& summary, const std::string& actor) {
  for (const auto& a : summary.actors)
    if (a.name == actor) return a.rejected + a.failed;
  return ~0ull;
}

}  // namespace cwf::pubsub::testing
