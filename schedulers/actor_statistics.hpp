// The actor statistics module every policy may use (seed 5.3): per actor, the cost of a firing
// and the selectivity (events out per firing) as moving averages, input and output rates, and
// the length of its input queues.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "runtime/execution/scheduler.hpp"
#include "schedulers/decaying_ratio.hpp"

namespace cwf::schedulers {

class ActorStatistics {
 public:
  void attach(std::span<const SchedulableActor> actors);
  void record(ActorId actor, const FiringReport& report);

  bool measured(ActorId actor) const { return !entries_[actor].cost.empty(); }
  // Nanoseconds per firing; `fallback` before the first firing.
  double cost_per_firing(ActorId actor, double fallback = 0) const {
    return entries_[actor].cost.value_or(fallback);
  }
  // Events emitted per firing (items out per item in); `fallback` before the first firing.
  double selectivity(ActorId actor, double fallback = 1) const {
    return entries_[actor].selectivity.value_or(fallback);
  }
  std::size_t queue_length(ActorId actor) const;
  // Events per second taken in / emitted, over the interval between the last two samples.
  double input_rate(ActorId actor) const { return entries_[actor].input_rate; }
  double output_rate(ActorId actor) const { return entries_[actor].output_rate; }
  // Refreshes the rates if at least `min_interval` passed since the last sample.
  void sample(std::chrono::steady_clock::time_point now,
              std::chrono::nanoseconds min_interval = std::chrono::milliseconds(100));

 private:
  struct Entry {
    DecayingRatio cost;         // ns per firing
    DecayingRatio selectivity;  // events out per firing
    std::uint64_t in_at_sample = 0, out_at_sample = 0;
    double input_rate = 0, output_rate = 0;
  };
  std::vector<Entry> entries_;
  std::vector<SchedulableActor> actors_;
  std::chrono::steady_clock::time_point last_sample_{};
};

}  // namespace cwf::schedulers
