// The policy of gsm_pubsub's inner director: actors fire in the order they got work, each on a
// bounded number of windows per turn, so that no unit starves the others (a unit's step waits
// for the units it reads). An actor is queued at most once, so two workers never fire it at once.
#pragma once

#include <deque>

#include "runtime/execution/scheduler.hpp"

namespace cwf::gsm {

class WfuReadyOrder final : public Scheduler {
 public:
  static constexpr std::uint32_t kWindowsPerTurn = 64;
  std::string_view name() const override { return "wfu_ready_order"; }
  void attach(std::span<const SchedulableActor>) override {}
  void actor_got_work(ActorId actor) override { ready_.push_back(actor); }
  std::optional<Grant> next_actor() override {
    if (ready_.empty()) return std::nullopt;
    ActorId next = ready_.front();
    ready_.pop_front();
    return Grant{next, kWindowsPerTurn};
  }
  void firing_ended(ActorId actor, const FiringReport& report) override {
    if (report.has_more_work) ready_.push_back(actor);
  }

 private:
  std::deque<ActorId> ready_;
};

}  // namespace cwf::gsm
