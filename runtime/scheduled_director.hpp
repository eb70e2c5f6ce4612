// STAFiLOS' scheduled director (seed 5.3): a scheduling policy picks the next actor, the worker
// fires it on up to the granted number of windows, times the grant, and reports back.
//
// Wake-ups (an idle actor got input, a timer came due) are queued lock-free and handed to the
// policy on the worker thread, so policies are single-threaded code. Sources that pace themselves
// register timers; with a virtual clock the director jumps to the next timer when nothing else can
// run, which makes runs deterministic and as fast as the machine allows.
#pragma once

#include <concurrentqueue.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include "runtime/director.hpp"
#include "runtime/scheduler.hpp"

namespace cwf {

class ScheduledDirector final : public Director, public ReadyListener {
 public:
  explicit ScheduledDirector(std::unique_ptr<Scheduler> scheduler, unsigned workers = 1);

  std::string_view name() const override { return "scheduled"; }
  Scheduler& scheduler() { return *scheduler_; }
  void start(Execution& execution) override;
  void run(const RunOptions& options) override;
  void shutdown() override {}
  void make_ready(ActorCell& cell) override;

 private:
  void take_wakeups();
  void fire_due_timers();
  // Nothing is runnable: wait for a wake-up or the next timer. False when the workflow is done.
  bool wait_for_work(bool end_input_when_quiescent);
  void run_grant(const Grant& grant);

  std::unique_ptr<Scheduler> scheduler_;
  Execution* execution_ = nullptr;
  // Wake-ups raised by the worker itself (nearly all of them) skip the concurrent queue.
  std::atomic<std::thread::id> worker_;
  std::vector<ActorId> local_wakeups_;
  moodycamel::ConcurrentQueue<ActorId> wakeups_;
  std::mutex park_mutex_;
  std::condition_variable park_;
  std::atomic<bool> parked_{false};
  std::size_t busy_ = 0;  // actors the policy holds as having work
  using Timer = std::pair<Timestamp, ActorId>;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::vector<Timestamp> timer_at_;  // earliest pending timer per actor
};

}  // namespace cwf
