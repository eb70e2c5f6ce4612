#include "schedulers/abstract_scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace cwf::schedulers {

const char* to_string(ActorState state) {
  switch (state) {
    case ActorState::active:
      return "ACTIVE";
    case ActorState::waiting:
      return "WAITING";
    case ActorState::running:
      return "RUNNING";
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
  if (state_[actor] != ActorState::running) illegal(actor, ActorState::inactive);
  state_[actor] = ActorState::inactive;
  statistics_.record(actor, report);
  on_firing_ended(actor, report);
}

void AbstractScheduler::illegal(ActorId actor, ActorState to) const {
  throw SchedulerStateError(std::string(name()) + " scheduler: actor " + std::to_string(actor) +
                            (is_source(actor) ? " (a source)" : "") + " cannot go from " +
                            to_string(state_[actor]) + " to " + to_string(to));
}

void AbstractScheduler::make_active(ActorId actor, double key) {
  if (state_[actor] == ActorState::running) illegal(actor, ActorState::active);
  waiting_.erase(actor);
  active_.push(actor, key);
  state_[actor] = ActorState::active;
}

void AbstractScheduler::make_waiting(ActorId actor, double key) {
  if (state_[actor] == ActorState::running) illegal(actor, ActorState::waiting);
  active_.erase(actor);
  waiting_.push(actor, key);
  state_[actor] = ActorState::waiting;
}

void AbstractScheduler::make_inactive(ActorId actor) {
  if (state_[actor] == ActorState::running) illegal(actor, ActorState::inactive);
  active_.erase(actor);
  waiting_.erase(actor);
  state_[actor] = ActorState::inactive;
}

std::optional<ActorId> AbstractScheduler::take_active() {
  std::optional<ActorId> next = active_.pop();
  if (next) state_[*next] = ActorState::running;
  return next;
}

void AbstractScheduler::label_source(ActorId source, ActorState state) {
  if (!is_source(source) || state_[source] == ActorState::running || state == ActorState::running ||
      active_.contains(source) || waiting_.contains(source))
    illegal(source, state);
  state_[source] = state;
}

void AbstractScheduler::run_source(ActorId source) {
  if (!is_source(source) || state_[source] == ActorState::running)
    illegal(source, ActorState::running);
  active_.erase(source);
  waiting_.erase(source);
  state_[source] = ActorState::running;
}

void AbstractScheduler::sample_statistics() {
  statistics_.sample(std::chrono::steady_clock::now());
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
