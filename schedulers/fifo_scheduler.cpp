#include "schedulers/fifo_scheduler.hpp"

namespace cwf::schedulers {

std::optional<Grant> FifoScheduler::next_actor() {
  if (ready_.empty()) return std::nullopt;
  ActorId next = ready_.front();
  ready_.pop_front();
  return Grant{next, batch_};
}

void FifoScheduler::firing_ended(ActorId actor, const FiringReport& report) {
  if (report.has_more_work) ready_.push_back(actor);
}

}  // namespace cwf::schedulers
