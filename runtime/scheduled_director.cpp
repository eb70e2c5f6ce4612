#include "runtime/scheduled_director.hpp"

#include <chrono>
#include <stdexcept>

#include "runtime/run_monitor.hpp"

namespace cwf {

namespace {
// Longest uninterrupted sleep while parked, so stop requests and progress stay responsive.
constexpr auto kMaxPark = std::chrono::milliseconds(20);
}  // namespace

ScheduledDirector::ScheduledDirector(std::unique_ptr<Scheduler> scheduler, unsigned workers)
    : scheduler_(std::move(scheduler)) {
  if (workers != 1)
    throw std::invalid_argument("the scheduled director runs one worker (workers: " +
                                std::to_string(workers) + " requested)");
}

void ScheduledDirector::start(Execution& execution) {
  execution_ = &execution;
  execution.set_listener(*this);
  std::vector<SchedulableActor> actors;
  for (ActorId id = 0; id < execution.size(); ++id) {
    const ActorEntry& entry = execution.workflow().actor(id);
    actors.push_back({id, entry.name, entry.priority, entry.actor->is_source(),
                      execution.downstream(id), &execution.cell(id).stats()});
  }
  scheduler_->attach(actors);
  timer_at_.assign(execution.size(), kNever);
}

void ScheduledDirector::make_ready(ActorCell& cell) {
  if (std::this_thread::get_id() == worker_.load(std::memory_order_relaxed)) {
    local_wakeups_.push_back(cell.id());
    return;
  }
  wakeups_.enqueue(cell.id());
  // seq_cst pairs with the worker's store to parked_ before it re-checks the queue: one of the two
  // always sees the other, so a wake-up is never left waiting for the park timeout.
  if (parked_.load(std::memory_order_seq_cst)) {
    std::lock_guard lock(park_mutex_);
    park_.notify_one();
  }
}

void ScheduledDirector::take_wakeups() {
  for (ActorId local : local_wakeups_) {
    ++busy_;
    scheduler_->actor_got_work(local);
  }
  local_wakeups_.clear();
  ActorId id;
  while (wakeups_.try_dequeue(id)) {
    ++busy_;
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

void ScheduledDirector::run_grant(const Grant& grant) {
  ActorCell& cell = execution_->cell(grant.actor);
  scheduler_->firing_started(grant.actor);
  auto started = std::chrono::steady_clock::now();
  ActorCell::CycleResult result = cell.run(grant.max_firings);
  Duration cost = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - started)
                      .count();
  cell.stats().cost_ns.add(static_cast<std::uint64_t>(cost));
  bool more = result.has_more_work;
  if (!more) {
    // One timer per cell at its earliest deadline; a later, stale one only causes an empty run.
    Timestamp timer = cell.timer();
    if (!cell.finished() && timer < timer_at_[grant.actor]) {
      timers_.emplace(timer, grant.actor);
      timer_at_[grant.actor] = timer;
    }
    more = !cell.try_go_idle();
  }
  if (!more) --busy_;
  scheduler_->firing_ended(grant.actor, FiringReport{result.firings, cost, more});
}

bool ScheduledDirector::wait_for_work(bool end_input_when_quiescent) {
  // Timers of cells that finished (sources stopped while waiting) no longer matter.
  while (!timers_.empty() && execution_->cell(timers_.top().second).finished()) {
    timer_at_[timers_.top().second] = kNever;
    timers_.pop();
  }
  bool nothing_queued = wakeups_.size_approx() == 0 && local_wakeups_.empty();
  if (nothing_queued && execution_->quiescent()) {
    // No event can arrive any more: windows waiting for a deadline close now, not at the
    // deadline, and their results are processed before the run ends.
    if (!end_input_when_quiescent || execution_->env().end_of_input) return false;
    execution_->end_input();
    return true;
  }
  Clock& clock = execution_->clock();
  std::chrono::nanoseconds wait = kMaxPark;
  if (!timers_.empty()) {
    Duration delay = clock.real_delay_until(timers_.top().first);
    if (delay == 0) {
      clock.sleep_until(timers_.top().first);  // virtual time jumps; otherwise already due
      fire_due_timers();
      return true;
    }
    wait = std::min(wait, std::chrono::nanoseconds(delay));
  }
  std::unique_lock lock(park_mutex_);
  parked_.store(true, std::memory_order_seq_cst);
  if (wakeups_.size_approx() == 0) park_.wait_for(lock, wait);
  parked_.store(false, std::memory_order_release);
  return true;
}

void ScheduledDirector::run(const RunOptions& options) {
  worker_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  RunMonitor monitor(options);
  Execution& execution = *execution_;
  while (true) {
    if (monitor.stop_due()) execution.stop_sources();
    monitor.progress();
    take_wakeups();
    fire_due_timers();
    take_wakeups();
    scheduler_->iteration_started();
    std::uint32_t grants = 0;
    while (auto grant = scheduler_->next_actor()) {
      run_grant(*grant);
      take_wakeups();
      if (monitor.stop_due()) {
        execution.stop_sources();
        take_wakeups();
      }
      if ((++grants & 63) == 0) {
        fire_due_timers();
        take_wakeups();
        monitor.progress();
      }
    }
    scheduler_->iteration_ended();
    if (busy_ > 0) continue;
    if (!wait_for_work(options.end_input_when_quiescent)) break;
  }
}

}  // namespace cwf
