#include "runtime/execution/scheduled_director.hpp"

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "runtime/execution/run_monitor.hpp"
#include "runtime/execution/shared_worker_turn.hpp"
#include "runtime/graph/worker_homes.hpp"

namespace cwf {

namespace {
// Longest uninterrupted sleep while parked, so stop and pause requests and progress stay
// responsive; an idle workflow wakes 50 times a second per worker, which costs well under 1% CPU.
constexpr auto kMaxPark = std::chrono::milliseconds(20);
// Iterations in a row that hand out nothing while actors have work before a worker parks
// between them (QBS needs a few to re-quantify a large overdraft; more means a stuck policy).
constexpr int kEmptyIterationsBeforePark = 1024;

// The worker running on this thread, if any. A composite's inner director runs on its outer
// worker's thread, so each run() saves and restores these.
thread_local ScheduledDirector* tl_director = nullptr;
thread_local void* tl_worker = nullptr;

unsigned resolve_workers(unsigned requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}
}  // namespace

ScheduledDirector::ScheduledDirector(std::unique_ptr<Scheduler> scheduler, unsigned workers)
    : scheduler_(std::move(scheduler)),
      workers_(resolve_workers(workers)),
      active_(workers_),
      workers_state_(workers_) {
  for (unsigned i = 0; i < workers_; ++i)
    workers_state_[i].index = i;
}

ScheduledDirector::~ScheduledDirector() = default;

void ScheduledDirector::set_cost_model(CostModel model) {
  if (workers_ != 1)
    throw std::invalid_argument("a cost model makes runs deterministic only on one worker (" +
                                std::to_string(workers_) + " configured)");
  cost_model_ = std::move(model);
}

void ScheduledDirector::adapt_workers(WorkerGovernor::Settings settings) {
  if (workers_ > 1 && !cost_model_) governor_.emplace(workers_, settings);
}

void ScheduledDirector::govern(std::unique_lock<std::mutex>& lock) {
  // Events taken in by every actor: the work done, whatever the workflow.
  std::uint64_t events = 0;
  for (ActorId id = 0; id < execution_->size(); ++id)
    events += execution_->cell(id).stats().events_in.get();
  const Duration now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                           .count();
  lock.lock();
  const unsigned before = active_;
  active_ = governor_->observe(now, events);
  if (active_ > before) set_aside_.notify_all();
  lock.unlock();
}

std::string ScheduledDirector::how_it_ran() const {
  if (workers_ == 1) return {};
  std::string note = std::to_string(workers_) + " workers";
  if (!governor_ || governor_->trials() == 0) return note;
  char line[160];
  std::snprintf(line, sizeof line, "; one alone for %.2f s, %llu of %llu trials won by one",
                static_cast<double>(governor_->time_with_one()) / kSecond,
                static_cast<unsigned long long>(governor_->trials_won_by_one()),
                static_cast<unsigned long long>(governor_->trials()));
  return note + line;
}

void ScheduledDirector::end_run() {
  done_ = true;
  wake_.notify_all();
  set_aside_.notify_all();
}

std::vector<SchedulableActor> ScheduledDirector::schedulable_actors() const {
  const Execution& execution = *execution_;
  std::vector<SchedulableActor> actors;
  const std::vector<int> homes = worker_homes(execution.workflow(), workers_);
  for (ActorId id = 0; id < execution.size(); ++id) {
    const ActorEntry& entry = execution.workflow().actor(id);
    const ActorCell& cell = execution.cell(id);
    actors.push_back({id, entry.name, entry.priority, entry.actor->is_source(),
                      execution.downstream(id), &cell.stats(),
                      [&cell] { return cell.queue_length(); },
                      [&cell] { return cell.inbox_length(); }, homes[id]});
  }
  return actors;
}

void ScheduledDirector::start(Execution& execution) {
  execution_ = &execution;
  execution.set_listener(*this);
  execution.env().cells_fire_one_at_a_time = workers_ == 1;
  scheduler_->attach(schedulable_actors());
  timer_at_.assign(execution.size(), kNever);
  with_work_.assign(execution.size(), 0);
}

void ScheduledDirector::adopt_policy(std::unique_ptr<Scheduler> policy,
                                     std::function<void()> taken) {
  std::lock_guard lock(mutex_);
  pending_policy_ = std::move(policy);
  if (taken) policy_taken_.push_back(std::move(taken));
  wake_.notify_all();
}

void ScheduledDirector::switch_policy() {
  iteration_open_ = false;
  scheduler_ = std::move(pending_policy_);
  scheduler_->attach(schedulable_actors());
  for (ActorId id = 0; id < with_work_.size(); ++id)
    if (with_work_[id]) scheduler_->actor_got_work(id);
  for (auto& taken : policy_taken_)
    taken();
  policy_taken_.clear();
}

void ScheduledDirector::make_ready(ActorCell& cell) {
  if (tl_director == this) {
    static_cast<Worker*>(tl_worker)->wakeups.push_back(cell.id());
    return;
  }
  wakeups_.enqueue(cell.id());
  // The fence pairs with the one in park(): either this thread sees the parked flag or the
  // parking worker sees the enqueued element (the queue's size check uses relaxed loads), so a
  // wake-up never waits for the park timeout.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (anyone_parked_.load(std::memory_order_relaxed)) {
    std::lock_guard lock(mutex_);
    wake_.notify_one();
  }
}

Timestamp ScheduledDirector::next_timer() {
  std::lock_guard lock(mutex_);
  // A later, stale timer only causes an empty run (see end_grant).
  while (!timers_.empty() && execution_->cell(timers_.top().second).finished()) {
    timer_at_[timers_.top().second] = kNever;
    timers_.pop();
  }
  return timers_.empty() ? kNever : timers_.top().first;
}

void ScheduledDirector::take_wakeups(Worker& self) {
  for (ActorId local : self.wakeups) {
    ++busy_;
    with_work_[local] = 1;
    scheduler_->actor_got_work(local);
  }
  self.wakeups.clear();
  ActorId id;
  while (wakeups_.try_dequeue(id)) {
    ++busy_;
    with_work_[id] = 1;
    scheduler_->actor_got_work(id);
  }
}

void ScheduledDirector::fire_due_timers() {
  if (timers_.empty()) return;
  Timestamp now = execution_->clock().now();
  while (!timers_.empty() && timers_.top().first <= now) {
    auto [time, id] = timers_.top();
    timers_.pop();
    if (timer_at_[id] == time) timer_at_[id] = kNever;
    execution_->cell(id).wake();
  }
}

ScheduledDirector::GrantOutcome ScheduledDirector::execute(const Grant& grant) {
  ActorCell& cell = execution_->cell(grant.actor);
  GrantOutcome outcome;
  std::uint64_t out_before = cell.stats().events_out.get();
  std::uint64_t waited = 0;
  if (timed_) {
    auto started = std::chrono::steady_clock::now();
    outcome.result = fire_on_shared_worker(cell, grant.max_firings, worker_share_, waited);
    outcome.cost = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now() - started)
                       .count() -
                   static_cast<Duration>(waited);
  } else {
    outcome.result = fire_on_shared_worker(cell, grant.max_firings, worker_share_, waited);
  }
  if (cost_model_) {
    outcome.cost = cost_model_(grant.actor, outcome.result.firings);
    if (auto* virtual_clock = dynamic_cast<VirtualClock*>(&execution_->clock()))
      virtual_clock->advance_to(virtual_clock->now() + outcome.cost);
  }
  cell.stats().cost_ns.add(static_cast<std::uint64_t>(outcome.cost));
  outcome.events_out = cell.stats().events_out.get() - out_before;
  return outcome;
}

void ScheduledDirector::end_grant(ActorId actor, const GrantOutcome& outcome) {
  ActorCell& cell = execution_->cell(actor);
  bool more = outcome.result.has_more_work;
  if (!more) {
    // One timer per cell at its earliest deadline; a later, stale one only causes an empty run.
    Timestamp timer = cell.timer();
    if (!cell.finished() && timer < timer_at_[actor]) {
      timers_.emplace(timer, actor);
      timer_at_[actor] = timer;
    }
    // Under the mutex: a wake-up raised by another worker after this point reaches the policy
    // only after firing_ended() below, so the policy never sees work for an actor it holds.
    more = !cell.try_go_idle();
  }
  if (!more) {
    --busy_;
    with_work_[actor] = 0;
  }
  scheduler_->firing_ended(
      actor, FiringReport{outcome.result.firings, outcome.cost, outcome.events_out, more});
}

bool ScheduledDirector::paused(const RunOptions& options) const {
  return !stopped_ && options.pause_requested &&
         options.pause_requested->load(std::memory_order_relaxed) &&
         !(options.suspend_requested && options.suspend_requested->load());
}

void ScheduledDirector::checkpoint_turn(RunMonitor& monitor, Worker& self) {
  // Under the mutex, with no grant out and no actor with work, no worker can start a grant or
  // fire a timer until the checkpoint is written.
  bool released = monitor.checkpoint_turn(*execution_, [&] {
    if (outstanding_ > 0 || busy_ > 0 || wakeups_.size_approx() > 0 || !execution_->drained())
      return false;
    monitor.write_checkpoint();
    return true;
  });
  if (!released) return;
  execution_->wake_sources();  // onto this worker's own list
  take_wakeups(self);
}

void ScheduledDirector::park(std::unique_lock<std::mutex>& lock, std::chrono::nanoseconds at_most) {
  ++parked_;
  anyone_parked_.store(true, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);  // see make_ready()
  if (wakeups_.size_approx() == 0) wake_.wait_for(lock, at_most);
  if (--parked_ == 0) anyone_parked_.store(false, std::memory_order_relaxed);
}

bool ScheduledDirector::idle(std::unique_lock<std::mutex>& lock, const RunOptions& options,
                             Worker& self) {
  // Timers of cells that finished (sources stopped while waiting) no longer matter.
  while (!timers_.empty() && execution_->cell(timers_.top().second).finished()) {
    timer_at_[timers_.top().second] = kNever;
    timers_.pop();
  }
  if (wakeups_.size_approx() == 0 && execution_->quiescent()) {
    // No event can arrive any more: windows waiting for a deadline close now, not at the
    // deadline, and their results are processed before the run ends. Except on a cycle, where
    // their results come back: there time moves to the earliest deadline (the timers below).
    if (!options.end_input_when_quiescent) return false;
    // After the end of input, the run is over once what other processes send has ended too
    // (their messages wake the inlets meanwhile).
    if (execution_->env().end_of_input) {
      if (execution_->inlets_finished()) return false;
    } else if (timers_.empty() || execution_->cycle_window_deadline() == kNever) {
      execution_->end_input();
      return true;
    }
  }
  // An actor woken by another thread whose wake-up is not queued yet: time must not move past
  // the work it brings (make_ready wakes a parked worker once it is queued).
  for (ActorId id = 0; id < execution_->size(); ++id)
    if (!execution_->cell(id).is_source() && !execution_->cell(id).idle()) {
      if (wakeups_.size_approx() == 0) park(lock, kMaxPark);
      return true;
    }
  // A sub-workflow's run (its input goes on) leaves the clock to the parent, which fires the
  // sub-workflow again at its next timer (CompositeActor): it ends here instead of waiting.
  if (!options.end_input_when_quiescent) return false;
  // Sources held for a checkpoint: time must not move past their next events (worker 0 writes
  // the checkpoint or gives it up, then wakes them).
  if (execution_->env().hold_sources.load(std::memory_order_relaxed)) {
    park(lock, kMaxPark);
    return true;
  }
  Clock& clock = execution_->clock();
  std::chrono::nanoseconds wait = kMaxPark;
  if (!timers_.empty()) {
    Duration delay = clock.real_delay_until(timers_.top().first);
    if (delay == 0) {
      clock.sleep_until(timers_.top().first);  // virtual time jumps; otherwise already due
      fire_due_timers();
      // The cells woken are on this worker's own list: counted now, before the lock is released
      // (worker 0's progress turn does), or another worker would find nothing busy and move the
      // clock again past their work.
      take_wakeups(self);
      return true;
    }
    wait = std::min(wait, std::chrono::nanoseconds(delay));
  }
  park(lock, wait);
  return true;
}

void ScheduledDirector::work(Worker& self, RunMonitor* monitor, const RunOptions& options) {
  ScheduledDirector* saved_director = tl_director;
  void* saved_worker = tl_worker;
  tl_director = this;
  tl_worker = &self;
  Execution& execution = *execution_;
  std::unique_lock lock(mutex_);
  std::uint32_t turns = 0;
  int empty_iterations = 0;
  while (!done_) {
    // Worker 0 polls the stop request and prints progress on every 16th turn (a parked worker
    // takes a turn at least every kMaxPark), outside the lock: a slow progress callback must not
    // hold up the other workers.
    if (monitor && (turns++ & 15) == 0) {
      lock.unlock();
      if (governor_) govern(lock);
      monitor->progress();
      bool stop = monitor->stop_due();
      if (stop) execution.stop_sources();  // wakes waiting sources: onto this worker's list
      lock.lock();
      if (stop) stopped_ = true;
      if (monitor->time_is_up()) {
        // Grants in flight end; nothing new starts. The runner counts what is left.
        execution.env().time_was_up.store(true);
        end_run();
        break;
      }
    }
    take_wakeups(self);
    if (self.index >= active_) {
      // Set aside while fewer workers get more done (WorkerGovernor); worker 0 never is.
      set_aside_.wait_for(lock, kMaxPark);
      continue;
    }
    fire_due_timers();
    take_wakeups(self);
    if (monitor) {
      checkpoint_turn(*monitor, self);
      if (monitor->suspended()) {
        // Written while nothing ran: the run ends there, its sources still held.
        end_run();
        break;
      }
    }
    if (pending_policy_ && monitor && outstanding_ == 0) switch_policy();
    // While a new policy waits, no grant starts: the ones out end, then worker 0 switches.
    if (!paused(options) && !pending_policy_) {
      if (!iteration_open_) {
        scheduler_->iteration_started();
        iteration_open_ = true;
      }
      if (auto grant = scheduler_->next_actor_on(self.index)) {
        empty_iterations = 0;
        ++outstanding_;
        scheduler_->firing_started(grant->actor);
        // Work the policy still holds may run on a parked worker meanwhile.
        if (parked_ > 0 && busy_ > outstanding_) wake_.notify_one();
        lock.unlock();
        GrantOutcome outcome = execute(*grant);
        lock.lock();
        --outstanding_;
        end_grant(grant->actor, outcome);
        take_wakeups(self);
        if (parked_ > 0 && (busy_ > outstanding_ || (busy_ == 0 && outstanding_ == 0)))
          wake_.notify_one();
        continue;
      }
      if (outstanding_ == 0) {
        // The seed's end of a director iteration: the policy re-quantifies, starts a period...
        scheduler_->iteration_ended();
        iteration_open_ = false;
        // The next iteration may hand out work at once; if not (every actor waits for quantum it
        // has not got yet), the loop ends iterations until one does. A policy that never does
        // would spin here holding the lock: after many empty iterations, park between them.
        if (busy_ > 0 && ++empty_iterations < kEmptyIterationsBeforePark) continue;
      }
    }
    if (outstanding_ > 0 || busy_ > 0 || paused(options) || pending_policy_) {
      // Also wake for the next timer: a paced source or a window deadline must not wait for
      // another worker's long grant.
      std::chrono::nanoseconds wait = kMaxPark;
      if (!timers_.empty()) {
        Clock& clock = execution.clock();
        Timestamp next = timers_.top().first;
        // A virtual clock reports no wall-time delay for a timer that is not due: its time moves
        // only when the workflow goes idle (idle()), so wait for the grants in flight instead of
        // spinning with the lock held.
        if (clock.now() >= next)
          wait = std::chrono::nanoseconds(0);
        else if (Duration delay = clock.real_delay_until(next); delay > 0)
          wait = std::min(wait, std::chrono::nanoseconds(delay));
      }
      if (wait.count() > 0) park(lock, wait);
      empty_iterations = 0;
      turns = 0;  // a parked worker 0 checks for a stop request right away
      continue;
    }
    if (!idle(lock, options, self)) end_run();
    turns = 0;
  }
  lock.unlock();
  tl_director = saved_director;
  tl_worker = saved_worker;
}

void ScheduledDirector::run(const RunOptions& options) {
  {
    std::lock_guard lock(mutex_);
    done_ = false;
    stopped_ = false;
  }
  // A composite's per-firing run on one worker has nothing to watch (no stop request, progress,
  // deadline, checkpoint or policy change reaches a sub-workflow: its actor's run has them);
  // several workers need worker 0's monitor for the governor.
  const bool watched =
      workers_ > 1 || options.end_input_when_quiescent || RunMonitor::has_work(options);
  std::optional<RunMonitor> monitor;
  if (watched) monitor.emplace(options);
  // Nobody reads the cost of an unwatched run's firings unless its policy does.
  timed_ = watched || scheduler_->uses_costs();
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < workers_; ++i)
    threads.emplace_back([this, i, &options] { work(workers_state_[i], nullptr, options); });
  work(workers_state_[0], monitor ? &*monitor : nullptr, options);
  for (auto& t : threads)
    t.join();
}

}  // namespace cwf
