// The simplest policy: actors fire in the order they got work, each on every window it has when
// its turn comes; a source fires a fixed number of times per turn, so the input rate follows the
// speed of the rest of the workflow and queues stay short without tuning.
#pragma once

#include <deque>
#include <vector>

#include "runtime/scheduler.hpp"

namespace cwf::schedulers {

class FifoScheduler final : public Scheduler {
 public:
  // `batch`: most windows a non-source fires on per turn.
  explicit FifoScheduler(std::uint32_t batch = kAllWindows) : batch_(batch) {}
  static constexpr std::uint32_t kAllWindows = 0xffffffff;
  // Source firings per turn: enough to amortise a turn's bookkeeping over many events, few
  // enough that the events of one turn stay in cache on their way down the workflow.
  static constexpr std::uint32_t kSourceFirings = 64;
  std::string_view name() const override { return "fifo"; }
  void attach(std::span<const SchedulableActor> actors) override;
  void actor_got_work(ActorId actor) override { ready_.push_back(actor); }
  std::optional<Grant> next_actor() override;
  void firing_ended(ActorId actor, const FiringReport& report) override;

 private:
  std::uint32_t batch_;
  std::vector<bool> is_source_;
  std::deque<ActorId> ready_;
};

}  // namespace cwf::schedulers
