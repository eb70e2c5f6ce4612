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
  timer_pending_.assign(execution.size(), false);
}

void ScheduledDirector::make_ready(ActorCell& cell) {
  if (std::this_thread::get_id() == worker_) {
    local_wakeups_.push_back(cell.id());
    return;
  }
  wakeups_.enqueue(cell.id());
  if (parked_.load(std::memory_order_acquire)) {
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
    ActorId id = timers_.top().second;
    timers_.pop();
    timer_pending_[id] = false;
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
    if (cell.is_source() && !cell.finished() && cell.fire_again_at() != kNever &&
        !timer_pending_[grant.actor]) {
      timers_.emplace(cell.fire_again_at(), grant.actor);
      timer_pending_[grant.actor] = true;
    }
    more = !cell.try_go_idle();
  }
  if (!more) --busy_;
  scheduler_->firing_ended(grant.actor, FiringReport{result.firings, cost, more});
}

bool ScheduledDirector::wait_for_work(RunMonitor& monitor) {
  // Timers of sources that finished (stopped while waiting) no longer matter.
  while (!timers_.empty() && execution_->cell(timers_.top().second).finished()) {
    timer_pending_[timers_.top().second] = false;
    timers_.pop();
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
  } else if (execution_->quiescent() && wakeups_.size_approx() == 0 && local_wakeups_.empty()) {
    return false;
  }
  std::unique_lock lock(park_mutex_);
  parked_.store(true, std::memory_order_release);
  if (wakeups_.size_approx() == 0) park_.wait_for(lock, wait);
  parked_.store(false, std::memory_order_release);
  (void)monitor;
  return true;
}

void ScheduledDirector::run(const RunOptions& options) {
  worker_ = std::this_thread::get_id();
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
    if (!wait_for_work(monitor)) break;
  }
}

}  // namespace cwf
