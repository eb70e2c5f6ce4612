// The rate-based scheduler, RB (seed 5.4.3; Sharaf et al.'s Highest Rate policy).
//
// Dynamic priority Pr(A) = S_A / C_A: global selectivity over global average cost along the
// paths from A to the workflow's outputs. With c the mean cost of a firing and s the mean events
// emitted per firing (both measured),
//     S_A = s_A · Σ_children S_child        C_A = c_A + s_A · Σ_children C_child
// which unrolls to the seed's products along a path, with the branches of a splitting actor
// added. An actor without downstream actors is an output actor: S = s and C = c for it, except
// that a sink (which emits nothing: everything it takes in is output) counts s = 1 — a literal
// s = 0 would zero every priority upstream.
//
// c and s are per firing, which is per item for actors fed without windows (one event, one
// firing); for an actor whose windows hold k events they are per window. The period budget
// counts queued events, which again equals windows only without windows: a sliding window over
// events already fired on may fire more windows in a period than there were new events.
//
// Execution is in periods (director iterations). A period fires the work that was queued when it
// began: each actor gets a budget of firings equal to its queue length at the start of the
// period (at least one); events that arrive during the period wait in the next-period buffer,
// i.e. the actor is WAITING once its budget is spent, and INACTIVE with nothing queued. Sources
// fire once per period, ordered by their priority like everyone else. Priorities are recomputed
// at the end of each period.
#pragma once

#include "schedulers/abstract_scheduler.hpp"

namespace cwf::schedulers {

struct RateBasedOptions : TurnOptions {
  double unmeasured_cost_ns = 1000;  // c of an actor that has not fired yet
};

class RateBasedScheduler final : public AbstractScheduler {
 public:
  explicit RateBasedScheduler(RateBasedOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "rb"; }
  void actor_got_work(ActorId actor) override;
  std::optional<Grant> next_actor() override;
  void iteration_ended() override;

  double priority(ActorId actor) const { return priority_[actor]; }
  double global_selectivity(ActorId actor) const { return global_selectivity_[actor]; }
  double global_cost(ActorId actor) const { return global_cost_[actor]; }
  std::uint64_t budget(ActorId actor) const { return budget_[actor]; }
  std::uint64_t periods() const { return periods_; }
  // Recomputes S, C and Pr for every actor from the current statistics.
  void recompute_priorities();

 private:
  void on_attach() override;
  void on_firing_ended(ActorId actor, const FiringReport& report) override;
  double key(ActorId id) const { return -priority_[id]; }  // highest rate first
  void compute(ActorId id, std::vector<std::uint8_t>& visit);

  RateBasedOptions options_;
  std::vector<double> priority_, global_selectivity_, global_cost_;
  std::vector<std::uint64_t> budget_;  // firings left in this period
  std::vector<bool> fired_;            // sources: fired in this period
  std::uint64_t periods_ = 0;
};

}  // namespace cwf::schedulers
