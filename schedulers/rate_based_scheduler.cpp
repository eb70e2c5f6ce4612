#include "schedulers/rate_based_scheduler.hpp"

#include <algorithm>

namespace cwf::schedulers {

void RateBasedScheduler::on_attach() {
  std::size_t n = actor_count();
  priority_.assign(n, 0);
  global_selectivity_.assign(n, 0);
  global_cost_.assign(n, 0);
  budget_.assign(n, 0);
  fired_.assign(n, false);
  recompute_priorities();
}

void RateBasedScheduler::compute(ActorId id, std::vector<std::uint8_t>& visit) {
  enum : std::uint8_t { unvisited, visiting, done };
  if (visit[id] != unvisited) return;  // done, or a feedback edge (which adds nothing)
  visit[id] = visiting;
  double c = statistics().cost_per_firing(id, options_.unmeasured_cost_ns);
  const auto& children = actor(id).downstream;
  if (children.empty()) {
    // An output actor: what it emits leaves the workflow; a sink emits nothing, yet everything
    // it takes in is output.
    double s = statistics().selectivity(id, 1);
    global_selectivity_[id] = s > 0 ? s : 1;
    global_cost_[id] = c;
  } else {
    double s = statistics().selectivity(id, 1);
    double selectivity = 0, cost = 0;
    for (ActorId child : children) {
      compute(child, visit);
      if (visit[child] != done) continue;
      selectivity += global_selectivity_[child];
      cost += global_cost_[child];
    }
    global_selectivity_[id] = s * selectivity;
    global_cost_[id] = c + s * cost;
  }
  priority_[id] = global_cost_[id] > 0 ? global_selectivity_[id] / global_cost_[id] : 0;
  visit[id] = done;
}

void RateBasedScheduler::recompute_priorities() {
  std::vector<std::uint8_t> visit(actor_count(), 0);
  for (ActorId id = 0; id < actor_count(); ++id)
    compute(id, visit);
}

void RateBasedScheduler::actor_got_work(ActorId id) {
  bool may_fire = is_source(id) ? !fired_[id] : budget_[id] > 0;
  if (may_fire)
    make_active(id, key(id));
  else
    make_waiting(id, key(id));  // in the next-period buffer
}

std::optional<Grant> RateBasedScheduler::next_actor() {
  auto next = take_active();
  if (!next) return std::nullopt;
  if (is_source(*next)) return Grant{*next, options_.source_batch};
  auto firings = std::min<std::uint64_t>(budget_[*next], options_.batch);
  return Grant{*next, static_cast<std::uint32_t>(std::max<std::uint64_t>(firings, 1))};
}

void RateBasedScheduler::on_firing_ended(ActorId id, const FiringReport& report) {
  if (is_source(id)) {
    fired_[id] = true;
    if (report.has_more_work)
      make_waiting(id, key(id));
    else
      make_inactive(id);
    return;
  }
  budget_[id] -= std::min<std::uint64_t>(budget_[id], report.firings);
  if (!report.has_more_work) {
    budget_[id] = 0;  // what arrives from now on belongs to the next period
    make_inactive(id);
  } else if (budget_[id] > 0) {
    make_active(id, key(id));
  } else {
    make_waiting(id, key(id));
  }
}

void RateBasedScheduler::iteration_ended() {
  ++periods_;
  sample_statistics();
  recompute_priorities();
  // The next period: what was queued now is its work.
  for (ActorId id : waiting_actors()) {
    if (is_source(id)) {
      fired_[id] = false;
    } else {
      budget_[id] = std::max<std::uint64_t>(1, statistics().queue_length(id));
    }
    make_active(id, key(id));
  }
  for (ActorId id = 0; id < actor_count(); ++id)
    if (is_source(id)) fired_[id] = false;
}

}  // namespace cwf::schedulers
