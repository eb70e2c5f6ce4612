// STAFiLOS' scheduled director (seed 5.3), on one worker or many: a scheduling policy picks the
// next actor, a worker fires it on up to the granted number of windows, times the grant, and
// reports back.
//
// Workers share one policy behind a mutex, so policies stay single-threaded code and keep their
// meaning on any number of workers: the policy orders the actors exactly as on one core, N
// workers just consume its decisions N at a time. The lock is taken twice per grant, not per
// event; firings run outside it. An actor is never handed out twice (the policy holds an actor
// from next_actor() to firing_ended()), so it never fires concurrently with itself.
//
// An iteration (the seed's director iteration) ends when the policy has nothing to hand out and
// no grant is outstanding; then the policy does its maintenance (re-quantify, new period).
//
// Wake-ups raised on a worker (nearly all: an actor's outputs wake its consumers) go to that
// worker's own list and reach the policy the next time the worker holds the lock; wake-ups from
// other threads go through a lock-free queue. Idle workers park on a condition variable. Sources
// that pace themselves and windows with deadlines register timers; with a virtual clock the
// director jumps to the next timer when nothing else can run.
//
// Deterministic mode (tests, experiments): one worker, a virtual clock and a cost model; each
// grant is charged the model's cost and the clock advances by it, so a run is reproducible.
#pragma once

#include <concurrentqueue.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <queue>
#include <thread>
#include <vector>

#include "runtime/execution/director.hpp"
#include "runtime/execution/scheduler.hpp"
#include "runtime/execution/worker_governor.hpp"

namespace cwf {

class RunMonitor;

class ScheduledDirector final : public Director, public ReadyListener {
 public:
  // `workers` = 0: one per hardware thread.
  explicit ScheduledDirector(std::unique_ptr<Scheduler> scheduler, unsigned workers = 1);
  ~ScheduledDirector() override;

  std::string_view name() const override { return "scheduled"; }
  // On several workers: how many, and with a governor what its trials decided.
  std::string how_it_ran() const override;
  Scheduler& scheduler() { return *scheduler_; }
  unsigned workers() const { return workers_; }
  // Charge each grant the model's cost instead of its measured time; with a virtual clock the
  // clock advances by that cost. Throws std::invalid_argument with more than one worker.
  void set_cost_model(CostModel model);
  // On several workers, let a WorkerGovernor decide now and then whether one worker gets more
  // done than all of them, and park the others while it does (before run(); not with a cost
  // model). Measured by worker 0, so only where it has a RunMonitor: a top-level run.
  void adapt_workers(WorkerGovernor::Settings settings = {});
  const WorkerGovernor* governor() const { return governor_ ? &*governor_ : nullptr; }

  void start(Execution& execution) override;
  void run(const RunOptions& options) override;
  void shutdown() override {}
  void make_ready(ActorCell& cell) override;
  Timestamp next_timer() override;
  // From any thread while it runs: goes on under `policy` (a policy changed at runtime, `cwf set
  // NAME director.PARAM=VALUE`). No new grant starts until those out have ended; then worker 0
  // attaches it, hands it the actors the old one held as having work, and calls `taken` (on its
  // own thread, with the director's mutex held: it must not call back into the director). The
  // old policy's figures (quanta, rates) are not carried over. A run that ends first drops it.
  // A second policy before the first is taken replaces it; both `taken` are called.
  void adopt_policy(std::unique_ptr<Scheduler> policy, std::function<void()> taken = {});

 private:
  struct Worker {
    unsigned index = 0;
    std::vector<ActorId> wakeups;  // raised on this worker's thread, not yet given to the policy
  };
  struct GrantOutcome {
    ActorCell::CycleResult result;
    Duration cost = 0;
    std::uint64_t events_out = 0;
  };

  void work(Worker& self, RunMonitor* monitor, const RunOptions& options);
  // Each of the following runs with mutex_ held.
  void take_wakeups(Worker& self);
  void fire_due_timers();
  void end_grant(ActorId actor, const GrantOutcome& outcome);
  // Nothing to hand out and nothing running: end the run, end the input, jump the virtual clock
  // or park until a wake-up or the next timer. False when the run is over.
  bool idle(std::unique_lock<std::mutex>& lock, const RunOptions& options, Worker& self);
  void park(std::unique_lock<std::mutex>& lock, std::chrono::nanoseconds at_most);
  // Worker 0 (the one with the monitor): begins a checkpoint when one is due, writes it once the
  // workflow has drained (no grant out, no actor with work: the mutex then keeps every worker
  // from firing), or gives it up; then wakes the sources.
  void checkpoint_turn(RunMonitor& monitor, Worker& self);
  bool paused(const RunOptions& options) const;
  std::vector<SchedulableActor> schedulable_actors() const;
  // Worker 0, mutex_ held, no grant out, its own wake-ups taken: the pending policy takes over.
  void switch_policy();

  GrantOutcome execute(const Grant& grant);
  // Worker 0, without the mutex: what the governor says now; with the mutex: applied.
  void govern(std::unique_lock<std::mutex>& lock);
  // The run is over: every worker, parked or set aside, is told.
  void end_run();

  std::unique_ptr<Scheduler> scheduler_;
  unsigned workers_;
  CostModel cost_model_;
  Execution* execution_ = nullptr;

  std::mutex mutex_;  // the policy, the timers and the counters below
  std::condition_variable wake_;
  std::size_t busy_ = 0;         // actors the policy holds as having work
  std::size_t outstanding_ = 0;  // grants being fired
  std::size_t parked_ = 0;       // workers waiting on wake_
  // Workers 0 .. active_ - 1 take grants; the others wait on set_aside_ (WorkerGovernor).
  unsigned active_ = 1;
  std::condition_variable set_aside_;
  std::optional<WorkerGovernor> governor_;
  bool iteration_open_ = false;
  bool done_ = false;
  bool stopped_ = false;  // the stop request was acted on (stop overrides pause)
  std::atomic<bool> anyone_parked_{false};
  moodycamel::ConcurrentQueue<ActorId> wakeups_;  // from threads that are not our workers
  using Timer = std::pair<Timestamp, ActorId>;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::vector<Timestamp> timer_at_;  // earliest pending timer per actor
  // Per actor: the policy holds it as having work (actor_got_work given, firing_ended with no
  // more work not yet), so that a new policy is handed exactly those.
  std::vector<char> with_work_;
  // One per worker, kept between runs: a composite runs its sub-workflow once per outer firing.
  std::vector<Worker> workers_state_;
  bool timed_ = true;  // this run measures each grant's cost (execute)
  std::unique_ptr<Scheduler> pending_policy_;
  std::vector<std::function<void()>> policy_taken_;  // a later policy replaces an earlier one
};

}  // namespace cwf
