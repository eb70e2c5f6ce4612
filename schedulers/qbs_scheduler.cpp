#include "schedulers/qbs_scheduler.hpp"

#include <algorithm>

namespace cwf::schedulers {

Duration QbsScheduler::quantum_for(int priority, Duration basic_quantum) {
  int p = std::clamp(priority, 0, 39);
  return p >= 20 ? (40 - p) * basic_quantum : (40 - p) * 4 * basic_quantum;
}

void QbsScheduler::on_attach() {
  std::vector<ActorId> sources;
  balance_.assign(actor_count(), 0);
  for (ActorId id = 0; id < actor_count(); ++id) {
    balance_[id] = quantum_for(actor(id).priority, options_.basic_quantum);
    if (is_source(id)) sources.push_back(id);
  }
  sources_.attach(std::move(sources), actor_count(), options_.source_interval);
}

void QbsScheduler::actor_got_work(ActorId id) {
  if (is_source(id)) {
    sources_.got_work(id);
    label_source(id, balance_[id] > 0 && !sources_.fired_this_iteration(id) ? ActorState::active
                                                                            : ActorState::waiting);
    return;
  }
  if (balance_[id] > 0)
    make_active(id, key(id));
  else
    make_waiting(id, key(id));
}

std::optional<Grant> QbsScheduler::next_actor() {
  bool internal_work = has_queued();
  if (sources_.due(internal_work)) {
    if (auto turn = sources_.take(internal_work, options_.source_batch,
                                  [this](ActorId s) { return balance_[s] > 0; })) {
      run_source(turn->source);
      return Grant{
          turn->source,
          firings_within(turn->source, static_cast<double>(balance_[turn->source]), turn->firings)};
    }
  }
  auto next = take_active();
  if (!next) return std::nullopt;
  return Grant{*next, firings_within(*next, static_cast<double>(balance_[*next]), options_.batch)};
}

void QbsScheduler::on_firing_ended(ActorId id, const FiringReport& report) {
  balance_[id] -= report.cost;  // may go negative: the overdraft is carried
  if (is_source(id)) {
    sources_.firing_ended(id, report.has_more_work);
    // It fired in this iteration: WAITING until the next one (or INACTIVE without work).
    label_source(id, report.has_more_work ? ActorState::waiting : ActorState::inactive);
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
  sample_statistics();
  sources_.new_iteration();
  // The active queue is empty here. Internal actors waiting means every internal actor with work
  // is out of quantum. Sources do not hold the re-quantification back: they fire only between
  // internal firings, so one with quantum left cannot use it while the internal actors wait
  // (otherwise it would take a turn per iteration until its own quantum ran out, flooding the
  // workflow with input it cannot process).
  bool sources_with_work = false, source_with_quantum = false;
  for (ActorId source : sources_.sources()) {
    if (!sources_.has_work(source)) continue;
    bool has_quantum = balance_[source] > 0;
    label_source(source, has_quantum ? ActorState::active : ActorState::waiting);
    sources_with_work = true;
    source_with_quantum = source_with_quantum || has_quantum;
  }
  if (has_waiting() || (sources_with_work && !source_with_quantum)) requantify();
}

void QbsScheduler::requantify() {
  ++requantifications_;
  // The waiting queue becomes the active queue, in its order; an actor whose overdraft exceeds a
  // quantum stays behind.
  for (ActorId id : waiting_actors()) {
    balance_[id] += quantum_for(actor(id).priority, options_.basic_quantum);
    if (balance_[id] > 0) make_active(id, key(id));
  }
  for (ActorId source : sources_.sources()) {
    if (!sources_.has_work(source)) continue;
    balance_[source] += quantum_for(actor(source).priority, options_.basic_quantum);
    label_source(source, balance_[source] > 0 ? ActorState::active : ActorState::waiting);
  }
}

}  // namespace cwf::schedulers
