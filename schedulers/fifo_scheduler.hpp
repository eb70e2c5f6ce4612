// The simplest policy: actors fire in the order they got work, each on every window it has
// (up to a batch, so that a busy actor cannot starve the rest); sources take their turn like any
// other actor, which keeps queues short without tuning.
#pragma once

#include <deque>

#include "runtime/scheduler.hpp"

namespace cwf::schedulers {

class FifoScheduler final : public Scheduler {
 public:
  explicit FifoScheduler(std::uint32_t batch = 256) : batch_(batch) {}
  std::string_view name() const override { return "fifo"; }
  void attach(std::span<const SchedulableActor>) override {}
  void actor_got_work(ActorId actor) override { ready_.push_back(actor); }
  std::optional<Grant> next_actor() override;
  void firing_ended(ActorId actor, const FiringReport& report) override;

 private:
  std::uint32_t batch_;
  std::deque<ActorId> ready_;
};

}  // namespace cwf::schedulers
