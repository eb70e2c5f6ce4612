// The simplest policy: actors fire in the order they got work, each on every window it has when
// its turn comes; a source fires a fixed number of times per turn.
//
// On one worker that alone paces the sources: the input rate follows the speed of the rest of
// the workflow. On several it does not (a worker with nothing else to do would keep firing a
// source while another works through the backlog), so a source also waits its turn while the
// other actors have more than kBacklogLimit events they have not taken in yet and some of them
// are about to work it off (queued or running). Events a window holds until it fills are not
// backlog, so a large window never stops its own input.
//
// With `affinity` (the default) it weighs the actors' homes (SchedulableActor::home): a worker
// takes the first actor in line that is its own or nobody's, and another worker's only when there
// is none, so replicas keep their state and their queues on one core while that core keeps up.
#pragma once

#include <deque>
#include <functional>
#include <vector>

#include "runtime/execution/scheduler.hpp"

namespace cwf::schedulers {

class FifoScheduler final : public Scheduler {
 public:
  // `batch`: most windows a non-source fires on per turn.
  explicit FifoScheduler(std::uint32_t batch = kAllWindows, bool affinity = true)
      : batch_(batch), affinity_(affinity) {}
  static constexpr std::uint32_t kAllWindows = 0xffffffff;
  // Source firings per turn: enough to amortise a turn's bookkeeping over many events, few
  // enough that the events of one turn stay in cache on their way down the workflow.
  static constexpr std::uint32_t kSourceFirings = 64;
  // Untaken events in the other actors' inputs beyond which sources wait (16 source turns).
  static constexpr std::size_t kBacklogLimit = 16 * kSourceFirings;
  std::string_view name() const override { return "fifo"; }
  bool uses_costs() const override { return false; }
  void attach(std::span<const SchedulableActor> actors) override;
  void actor_got_work(ActorId actor) override;
  std::optional<Grant> next_actor() override { return take(kAnyWorker); }
  std::optional<Grant> next_actor_on(unsigned worker) override {
    return take(affinity_ ? static_cast<int>(worker) : kAnyWorker);
  }
  void firing_ended(ActorId actor, const FiringReport& report) override;

 private:
  static constexpr int kAnyWorker = -1;
  // The next actor for `worker` (kAnyWorker: the first in line), removed from the line.
  std::optional<Grant> take(int worker);
  bool sources_must_wait() const;

  std::uint32_t batch_;
  bool affinity_;
  std::vector<bool> is_source_;
  std::vector<int> home_;
  std::vector<std::function<std::size_t()>> inbox_lengths_;  // of the non-sources
  std::deque<ActorId> ready_;
  std::size_t others_ready_ = 0;    // non-sources in ready_
  std::size_t others_running_ = 0;  // non-sources granted and not ended yet
};

}  // namespace cwf::schedulers
