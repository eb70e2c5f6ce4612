#include "schedulers/fifo_scheduler.hpp"

namespace cwf::schedulers {

void FifoScheduler::attach(std::span<const SchedulableActor> actors) {
  is_source_.assign(actors.size(), false);
  home_.assign(actors.size(), kNoHome);
  inbox_lengths_.clear();
  for (const auto& a : actors) {
    is_source_[a.id] = a.is_source;
    home_[a.id] = a.home;
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

std::optional<Grant> FifoScheduler::take(int worker) {
  std::optional<bool> sources_wait;  // looked at once, when the first source comes up
  auto chosen = ready_.end();
  for (auto it = ready_.begin(); it != ready_.end(); ++it) {
    if (is_source_[*it]) {
      if (!sources_wait) sources_wait = sources_must_wait();
      if (*sources_wait) continue;  // keeps its place in the line
    }
    const int home = home_[*it];
    if (worker == kAnyWorker || home == kNoHome || home == worker) {
      chosen = it;
      break;
    }
    if (chosen == ready_.end()) chosen = it;  // another worker's: if nothing else is ready
  }
  if (chosen == ready_.end()) return std::nullopt;
  const ActorId next = *chosen;
  if (chosen == ready_.begin())
    ready_.pop_front();  // nearly always: the general erase is several times the work
  else
    ready_.erase(chosen);
  if (is_source_[next]) return Grant{next, kSourceFirings};
  --others_ready_;
  ++others_running_;
  return Grant{next, batch_};
}

void FifoScheduler::firing_ended(ActorId actor, const FiringReport& report) {
  if (!is_source_[actor]) --others_running_;
  if (report.has_more_work) actor_got_work(actor);
}

}  // namespace cwf::schedulers
