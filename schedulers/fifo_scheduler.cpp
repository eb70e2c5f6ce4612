#include "schedulers/fifo_scheduler.hpp"

namespace cwf::schedulers {

void FifoScheduler::attach(std::span<const SchedulableActor> actors) {
  is_source_.assign(actors.size(), false);
  inbox_lengths_.clear();
  for (const auto& a : actors) {
    is_source_[a.id] = a.is_source;
    if (!a.is_source && a.inbox_length) inbox_lengths_.push_back(a.inbox_length);
  }
}

void FifoScheduler::actor_got_work(ActorId actor) {
  ready_.push_back(actor);
  if (!is_source_[actor]) ++others_ready_;
}

bool FifoScheduler::sources_must_wait() const {
  // Nobody would work the backlog off meanwhile: waiting could last for ever.
  if (others_ready_ + others_running_ == 0) return false;
  std::size_t backlog = 0;
  for (const auto& length : inbox_lengths_)
    if ((backlog += length()) > kBacklogLimit) return true;
  return false;
}

std::optional<Grant> FifoScheduler::next_actor() {
  std::optional<bool> sources_wait;  // looked at once, when the first source comes up
  for (auto it = ready_.begin(); it != ready_.end(); ++it) {
    ActorId next = *it;
    if (is_source_[next]) {
      if (!sources_wait) sources_wait = sources_must_wait();
      if (*sources_wait) continue;  // keeps its place in the line
      ready_.erase(it);
      return Grant{next, kSourceFirings};
    }
    ready_.erase(it);
    --others_ready_;
    ++others_running_;
    return Grant{next, batch_};
  }
  return std::nullopt;
}

void FifoScheduler::firing_ended(ActorId actor, const FiringReport& report) {
  if (!is_source_[actor]) --others_running_;
  if (report.has_more_work) actor_got_work(actor);
}

}  // namespace cwf::schedulers
