#include "schedulers/round_robin_scheduler.hpp"

namespace cwf::schedulers {

void RoundRobinScheduler::on_attach() {
  std::vector<ActorId> sources;
  slice_.assign(actor_count(), options_.slice);
  for (ActorId id = 0; id < actor_count(); ++id)
    if (is_source(id)) sources.push_back(id);
  sources_.attach(std::move(sources), actor_count(), options_.source_interval);
}

void RoundRobinScheduler::actor_got_work(ActorId id) {
  if (is_source(id)) {
    sources_.got_work(id);
    label_source(id, slice_[id] > 0 && !sources_.fired_this_iteration(id) ? ActorState::active
                                                                          : ActorState::waiting);
    return;
  }
  // It was inactive (the director reports work only for actors the policy does not hold).
  slice_[id] = options_.slice;
  make_active(id, kKey);
}

std::optional<Grant> RoundRobinScheduler::next_actor() {
  bool internal_work = has_queued();
  if (sources_.due(internal_work)) {
    if (auto turn = sources_.take(internal_work, options_.source_batch,
                                  [this](ActorId s) { return slice_[s] > 0; })) {
      run_source(turn->source);
      return Grant{
          turn->source,
          firings_within(turn->source, static_cast<double>(slice_[turn->source]), turn->firings)};
    }
  }
  auto next = take_active();
  if (!next) return std::nullopt;
  return Grant{*next, firings_within(*next, static_cast<double>(slice_[*next]), options_.batch)};
}

void RoundRobinScheduler::on_firing_ended(ActorId id, const FiringReport& report) {
  slice_[id] -= report.cost;
  if (is_source(id)) {
    sources_.firing_ended(id, report.has_more_work);
    label_source(id, report.has_more_work ? ActorState::waiting : ActorState::inactive);
    return;
  }
  sources_.internal_fired(report.firings);
  if (!report.has_more_work) {
    slice_[id] = 0;  // gives up the rest of its slice
    make_inactive(id);
  } else if (slice_[id] > 0) {
    make_active(id, kKey);  // to the end of the round
  } else {
    make_waiting(id, kKey);
  }
}

void RoundRobinScheduler::iteration_ended() {
  // A new period: a fresh slice for every actor that waited, in the order they ran out.
  sample_statistics();
  sources_.new_iteration();
  for (ActorId id : waiting_actors()) {
    slice_[id] = options_.slice;
    make_active(id, kKey);
  }
  for (ActorId source : sources_.sources()) {
    slice_[source] = options_.slice;
    if (sources_.has_work(source)) label_source(source, ActorState::active);
  }
}

}  // namespace cwf::schedulers
