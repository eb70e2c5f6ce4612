#include "schedulers/fifo_scheduler.hpp"

namespace cwf::schedulers {

void FifoScheduler::attach(std::span<const SchedulableActor> actors) {
  is_source_.assign(actors.size(), false);
  for (const auto& a : actors)
    is_source_[a.id] = a.is_source;
}

std::optional<Grant> FifoScheduler::next_actor() {
  if (ready_.empty()) return std::nullopt;
  ActorId next = ready_.front();
  ready_.pop_front();
  return Grant{next, is_source_[next] ? kSourceFirings : batch_};
}

void FifoScheduler::firing_ended(ActorId actor, const FiringReport& report) {
  if (report.has_more_work) ready_.push_back(actor);
}

}  // namespace cwf::schedulers
