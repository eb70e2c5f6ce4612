#include "schedulers/actor_statistics.hpp"

namespace cwf::schedulers {

void ActorStatistics::attach(std::span<const SchedulableActor> actors) {
  actors_.assign(actors.begin(), actors.end());
  entries_.assign(actors.size(), Entry{});
}

void ActorStatistics::record(ActorId actor, const FiringReport& report) {
  if (report.firings == 0) return;  // a turn that found nothing to do says nothing about costs
  Entry& e = entries_[actor];
  e.cost.add(static_cast<double>(report.cost), report.firings);
  e.selectivity.add(static_cast<double>(report.events_out), report.firings);
}

std::size_t ActorStatistics::queue_length(ActorId actor) const {
  const auto& length = actors_[actor].queue_length;
  return length ? length() : 0;
}

void ActorStatistics::sample(std::chrono::steady_clock::time_point now,
                             std::chrono::nanoseconds min_interval) {
  auto elapsed = now - last_sample_;
  if (elapsed < min_interval) return;
  double seconds = std::chrono::duration<double>(elapsed).count();
  bool first = last_sample_ == std::chrono::steady_clock::time_point{};
  last_sample_ = now;
  for (std::size_t id = 0; id < entries_.size(); ++id) {
    const ActorStats* stats = actors_[id].stats;
    if (!stats) continue;
    Entry& e = entries_[id];
    std::uint64_t in = stats->events_in.get(), out = stats->events_out.get();
    if (!first) {
      e.input_rate = static_cast<double>(in - e.in_at_sample) / seconds;
      e.output_rate = static_cast<double>(out - e.out_at_sample) / seconds;
    }
    e.in_at_sample = in;
    e.out_at_sample = out;
  }
}

}  // namespace cwf::schedulers
