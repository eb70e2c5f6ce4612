// The round-robin scheduler, RR (seed 5.4.2). No priorities: each scheduling period (director
// iteration) gives every actor with work the same time slice; actors take turns in round-robin
// order. An actor that runs out of work goes INACTIVE and gives up the rest of its slice; one
// that uses up its slice is WAITING until the next period, when every waiting actor gets a fresh
// slice (no overdraft is carried: periods are equal). An inactive actor that gets work gets a
// slice and joins at the end of the queue, even in the middle of a period.
//
// Sources are treated as in QBS: after every `source_interval` internal firings, once per
// period each, while they have slice left.
#pragma once

#include "schedulers/abstract_scheduler.hpp"
#include "schedulers/source_turns.hpp"

namespace cwf::schedulers {

struct RoundRobinOptions : PacedTurnOptions {
  Duration slice = 20 * kMillisecond;
};

class RoundRobinScheduler final : public AbstractScheduler {
 public:
  explicit RoundRobinScheduler(RoundRobinOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "rr"; }
  void actor_got_work(ActorId actor) override;
  std::optional<Grant> next_actor() override;
  void iteration_ended() override;

  Duration slice_left(ActorId actor) const { return slice_[actor]; }

 private:
  void on_attach() override;
  void on_firing_ended(ActorId actor, const FiringReport& report) override;
  // Every actor has the same key: the queues are plain first-in first-out.
  static constexpr double kKey = 0;

  RoundRobinOptions options_;
  SourceTurns sources_;
  std::vector<Duration> slice_;
};

}  // namespace cwf::schedulers
