#include "schedulers/qbs_scheduler.hpp"

#include <algorithm>
#include <chrono>

namespace cwf::schedulers {

Duration QbsScheduler::quantum_for(int priority, Duration basic_quantum) {
  int p = std::clamp(priority, 0, 39);
  return p >= 20 ? (40 - p) * basic_quantum : (40 - p) * 4 * basic_quantum;
}

void QbsScheduler::on_attach() {
  std::vector<ActorId> sources;
  balance_.assign(actor_count(), 0);
  has_work_.assign(actor_count(), false);
  for (ActorId id = 0; id < actor_count(); ++id) {
    balance_[id] = quantum_for(actor(id).priority, options_.basic_quantum);
    if (is_source(id)) sources.push_back(id);
  }
  sources_.attach(std::move(sources), actor_count(), options_.source_interval);
}

void QbsScheduler::actor_got_work(ActorId id) {
  has_work_[id] = true;
  if (is_source(id)) {
    sources_.got_work(id);
    state_[id] = balance_[id] > 0 && !sources_.fired_this_iteration(id) ? ActorState::active
                                                                        : ActorState::waiting;
    return;
  }
  if (balance_[id] > 0)
    make_active(id, key(id));
  else
    make_waiting(id, key(id));
}

std::optional<Grant> QbsScheduler::next_actor() {
  if (sources_.due(!active_.empty())) {
    if (auto source = sources_.take([this](ActorId s) { return balance_[s] > 0; })) {
      make_running(*source);
      return Grant{*source, firings_within(*source, static_cast<double>(balance_[*source]),
                                           options_.source_batch)};
    }
  }
  auto next = active_.pop();
  if (!next) return std::nullopt;
  make_running(*next);
  return Grant{*next, firings_within(*next, static_cast<double>(balance_[*next]), options_.batch)};
}

void QbsScheduler::on_firing_ended(ActorId id, const FiringReport& report) {
  balance_[id] -= report.cost;  // may go negative: the overdraft is carried
  has_work_[id] = report.has_more_work;
  if (is_source(id)) {
    sources_.firing_ended(id, report.has_more_work);
    // It fired in this iteration: WAITING until the next one (or INACTIVE without work).
    state_[id] = report.has_more_work ? ActorState::waiting : ActorState::inactive;
    return;
  }
  sources_.internal_fired(report.firings);
  if (!report.has_more_work)
    make_inactive(id);  // keeps its balance
  else if (balance_[id] > 0)
    make_active(id, key(id));  // behind the actors of its priority that are waiting their turn
  else
    make_waiting(id, key(id));
}

void QbsScheduler::iteration_ended() {
  statistics_.sample(std::chrono::steady_clock::now());
  sources_.new_iteration();
  bool someone_has_quantum = !active_.empty();
  bool someone_is_out = !waiting_.empty();
  for (ActorId source : sources_.sources()) {
    if (!sources_.has_work(source)) continue;
    bool has_quantum = balance_[source] > 0;
    state_[source] = has_quantum ? ActorState::active : ActorState::waiting;
    someone_has_quantum = someone_has_quantum || has_quantum;
    someone_is_out = someone_is_out || !has_quantum;
  }
  if (!someone_has_quantum && someone_is_out) requantify();
}

void QbsScheduler::requantify() {
  ++requantifications_;
  // The waiting queue becomes the active queue, in its order; an actor whose overdraft exceeds a
  // quantum stays behind.
  for (ActorId id : waiting_.actors()) {
    balance_[id] += quantum_for(actor(id).priority, options_.basic_quantum);
    if (balance_[id] > 0) make_active(id, key(id));
  }
  for (ActorId source : sources_.sources()) {
    if (!sources_.has_work(source)) continue;
    balance_[source] += quantum_for(actor(source).priority, options_.basic_quantum);
    state_[source] = balance_[source] > 0 ? ActorState::active : ActorState::waiting;
  }
}

}  // namespace cwf::schedulers
