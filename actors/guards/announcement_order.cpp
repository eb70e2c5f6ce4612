#include "actors/guards/announcement_order.hpp"

namespace cwf::guards {

std::optional<Grant> AnnouncementOrder::next_actor() {
  if (ready_.empty()) return std::nullopt;
  ActorId next = ready_.front();
  ready_.pop_front();
  return Grant{next, 1};
}

void AnnouncementOrder::firing_ended(ActorId actor, const FiringReport& report) {
  if (report.has_more_work) ready_.push_back(actor);
}

}  // namespace cwf::guards
