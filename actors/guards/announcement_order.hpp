// The policy of a guard scheduler's inner director: actors fire in the order they got work,
// one worker, so that a run of announcements (and the order of outcomes) is reproducible.
#pragma once

#include <deque>

#include "runtime/execution/scheduler.hpp"

namespace cwf::guards {

class AnnouncementOrder final : public Scheduler {
 public:
  std::string_view name() const override { return "announcement_order"; }
  void attach(std::span<const SchedulableActor>) override {}
  void actor_got_work(ActorId actor) override { ready_.push_back(actor); }
  std::optional<Grant> next_actor() override;
  void firing_ended(ActorId actor, const FiringReport& report) override;

 private:
  std::deque<ActorId> ready_;
};

}  // namespace cwf::guards
