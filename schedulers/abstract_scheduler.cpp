#include "schedulers/abstract_scheduler.hpp"

#include <algorithm>
#include <cmath>

namespace cwf::schedulers {

const char* to_string(ActorState state) {
  switch (state) {
    case ActorState::active:
      return "ACTIVE";
    case ActorState::waiting:
      return "WAITING";
    case ActorState::inactive:
      break;
  }
  return "INACTIVE";
}

void AbstractScheduler::attach(std::span<const SchedulableActor> actors) {
  actors_.assign(actors.begin(), actors.end());
  statistics_.attach(actors);
  active_.resize(actors.size());
  waiting_.resize(actors.size());
  state_.assign(actors.size(), ActorState::inactive);
  on_attach();
}

void AbstractScheduler::firing_ended(ActorId actor, const FiringReport& report) {
  statistics_.record(actor, report);
  on_firing_ended(actor, report);
}

void AbstractScheduler::make_active(ActorId actor, double key) {
  waiting_.erase(actor);
  active_.push(actor, key);
  state_[actor] = ActorState::active;
}

void AbstractScheduler::make_waiting(ActorId actor, double key) {
  active_.erase(actor);
  waiting_.push(actor, key);
  state_[actor] = ActorState::waiting;
}

void AbstractScheduler::make_inactive(ActorId actor) {
  active_.erase(actor);
  waiting_.erase(actor);
  state_[actor] = ActorState::inactive;
}

void AbstractScheduler::make_running(ActorId actor) {
  active_.erase(actor);
  waiting_.erase(actor);
  state_[actor] = ActorState::active;
}

std::uint32_t AbstractScheduler::firings_within(ActorId actor, double budget,
                                                std::uint32_t cap) const {
  if (cap <= 1 || !statistics_.measured(actor)) return 1;
  double cost = statistics_.cost_per_firing(actor);
  if (cost <= 0) return cap;
  double fits = std::floor(budget / cost);
  return static_cast<std::uint32_t>(std::clamp(fits, 1.0, static_cast<double>(cap)));
}

}  // namespace cwf::schedulers
