#include "runtime/execution/threaded_director.hpp"

#include <algorithm>
#include <chrono>

#include "runtime/execution/run_monitor.hpp"
#include "runtime/execution/shared_worker_turn.hpp"

namespace cwf {

namespace {
constexpr std::uint32_t kFiringsPerWake = 256;
constexpr auto kSleepSlice = std::chrono::milliseconds(20);
// The scheduled director times every grant for its policy; here the time only feeds statistics.
ActorCell::CycleResult timed_run(ActorCell& cell, std::uint32_t max_firings, WorkerShare* share) {
  auto started = std::chrono::steady_clock::now();
  std::uint64_t waited = 0;
  ActorCell::CycleResult result = fire_on_shared_worker(cell, max_firings, share, waited);
  cell.stats().cost_ns.add(
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now() - started)
                                     .count()) -
      waited);
  return result;
}
}  // namespace

void ThreadedDirector::start(Execution& execution) {
  execution_ = &execution;
  execution.set_listener(*this);
  ready_.clear();
  for (std::size_t i = 0; i < execution.size(); ++i)
    ready_.push_back(std::make_unique<std::counting_semaphore<>>(0));
  shutting_down_ = false;
  frozen_ = false;
  virtual_clock_ = dynamic_cast<VirtualClock*>(&execution.clock());
  waiting_until_ = std::make_unique<std::atomic<Timestamp>[]>(execution.size());
  for (std::size_t i = 0; i < execution.size(); ++i)
    waiting_until_[i].store(kNever, std::memory_order_relaxed);
  for (ActorId id = 0; id < execution.size(); ++id) {
    ActorCell& cell = execution.cell(id);
    threads_.emplace_back(
        [this, &cell] { cell.is_source() ? source_loop(cell) : actor_loop(cell); });
  }
}

void ThreadedDirector::make_ready(ActorCell& cell) {
  // A source's thread takes it only while it waits for input (ExternalWake).
  ready_[cell.id()]->release();
}

void ThreadedDirector::wait_while_paused() const {
  while (paused_.load(std::memory_order_relaxed) && !shutting_down_)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

ActorCell::CycleResult ThreadedDirector::gated_run(ActorCell& cell, std::uint32_t max_firings) {
  std::shared_lock gate(firing_gate_);
  if (frozen_.load(std::memory_order_relaxed)) return {};  // suspended: nothing fires any more
  return timed_run(cell, max_firings, worker_share_);
}

void ThreadedDirector::wait_while_held() const {
  const ExecutionEnv& env = execution_->env();
  while (env.hold_sources.load(std::memory_order_relaxed) && !shutting_down_ &&
         !env.stop_sources.load(std::memory_order_relaxed))
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void ThreadedDirector::source_loop(ActorCell& cell) {
  Clock& clock = execution_->clock();
  while (!cell.finished() && !shutting_down_) {
    wait_while_paused();
    wait_while_held();
    ActorCell::CycleResult result = gated_run(cell, 1);
    auto& ready = *ready_[cell.id()];
    const bool awaits_input =
        !result.has_more_work && cell.waits_for_input() && cell.fire_again_at() == kNever;
    // Permits of wakes the firing has served.
    if (awaits_input)
      while (ready.try_acquire()) {
      }
    // Fails for a cell notified during the run (run it again), and for one never scheduled (its
    // thread starts before the sources are woken), which is idle.
    const bool notified = !cell.try_go_idle() && !cell.idle();
    if (cell.finished()) break;
    if (awaits_input) {
      // Until its ExternalWake, unless it came since the firing (then at once); in slices, so
      // that a stop, a hold or a pause is noticed. A wake after this point releases a permit.
      if (notified || cell.woken_from_outside()) continue;
      while (!ready.try_acquire_for(kSleepSlice) && !cell.woken_from_outside() && !shutting_down_ &&
             !execution_->env().stop_sources.load(std::memory_order_relaxed) &&
             !execution_->env().hold_sources.load(std::memory_order_relaxed) &&
             !paused_.load(std::memory_order_relaxed)) {
      }
      continue;
    }
    if (!result.has_more_work && cell.fire_again_at() != kNever && virtual_clock_) {
      wait_for_virtual_time(cell, cell.fire_again_at());
    } else if (!result.has_more_work && cell.fire_again_at() != kNever) {
      // Sleep in slices so that a stop request is noticed.
      Duration delay = clock.real_delay_until(cell.fire_again_at());
      if (delay > 0)
        std::this_thread::sleep_for(
            std::min<std::chrono::nanoseconds>(std::chrono::nanoseconds(delay), kSleepSlice));
      else
        clock.sleep_until(cell.fire_again_at());
    }
    // Held back by a full connection (a source has no semaphore to be woken by: it polls).
    while (cell.blocked() && !shutting_down_ &&
           !execution_->env().stop_sources.load(std::memory_order_relaxed))
      std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

void ThreadedDirector::actor_loop(ActorCell& cell) {
  auto& ready = *ready_[cell.id()];
  Clock& clock = execution_->clock();
  while (true) {
    Timestamp timer = cell.timer();
    const bool frozen = frozen_.load(std::memory_order_relaxed);
    if (timer == kNever || virtual_clock_ || frozen) {
      // On a virtual clock a deadline comes only when run() moves the clock, and it wakes us.
      // Frozen (suspended), nothing is due any more: the shutdown wakes us.
      ready.acquire();
    } else if (!ready.try_acquire_for(std::min<std::chrono::nanoseconds>(
                   std::chrono::nanoseconds(clock.real_delay_until(timer)), kSleepSlice))) {
      // A window deadline (formation timeout) came due without new input.
      if (clock.now() >= timer) cell.wake();
      continue;
    }
    if (shutting_down_) return;
    while (true) {
      wait_while_paused();
      // Frozen, the cell stays notified (it does not run): waiting to go idle would spin.
      if (frozen_.load(std::memory_order_relaxed) || shutting_down_) break;
      ActorCell::CycleResult result = gated_run(cell, kFiringsPerWake);
      if (result.has_more_work) continue;
      // Published before going idle, so that run() never sees this cell idle without its
      // deadline and moves the clock past it (and for next_timer()).
      waiting_until_[cell.id()].store(cell.timer(), std::memory_order_release);
      if (cell.try_go_idle()) break;
    }
  }
}

void ThreadedDirector::wait_for_virtual_time(ActorCell& cell, Timestamp time) {
  auto& ready = *ready_[cell.id()];
  const ExecutionEnv& env = execution_->env();
  waiting_until_[cell.id()].store(time, std::memory_order_release);
  while (virtual_clock_->now() < time && !shutting_down_ &&
         !env.stop_sources.load(std::memory_order_relaxed))
    (void)ready.try_acquire_for(kSleepSlice);  // released by advance_virtual_clock()
  waiting_until_[cell.id()].store(kNever, std::memory_order_release);
}

Timestamp ThreadedDirector::next_timer() {
  Timestamp earliest = kNever;
  for (ActorId id = 0; id < execution_->size(); ++id)
    if (!execution_->cell(id).finished())
      earliest = std::min(earliest, waiting_until_[id].load(std::memory_order_acquire));
  return earliest;
}

std::optional<Timestamp> ThreadedDirector::only_time_is_left(bool cycle_windows_wait) const {
  // As in Execution::quiescent(): two reads of the wake-up counter bracket the scan, so a cell
  // woken and back to idle during it does not go unnoticed.
  const ExecutionEnv& env = execution_->env();
  std::uint64_t before = env.wakeups.load(std::memory_order_acquire);
  Timestamp earliest = kNever;
  bool a_source_goes_on = false;
  for (ActorId id = 0; id < execution_->size(); ++id) {
    const ActorCell& cell = execution_->cell(id);
    if (cell.is_source()) {
      if (cell.finished()) continue;
      Timestamp waits_for = waiting_until_[id].load(std::memory_order_acquire);
      if (waits_for == kNever) return std::nullopt;  // firing, or held back by a full consumer
      a_source_goes_on = true;
      earliest = std::min(earliest, waits_for);
    } else {
      // Idle first, then its deadline: a cell publishes its deadline before it goes idle, so
      // the deadline read after seeing it idle is the one it went idle with. Read the other way
      // round, a deadline from before its last firing could pass for the current one.
      if (!cell.idle()) return std::nullopt;
      earliest = std::min(earliest, waiting_until_[id].load(std::memory_order_acquire));
    }
  }
  // With every source finished the input has ended, and its end makes every time asked for due
  // at once (Execution::end_input), as under the scheduled director: moving the clock to the
  // earliest of them first would let a source that finished during this scan decide the times
  // windows see.
  // (Quiescent with windows on a cycle waiting, every source had finished before the scan.)
  if (!a_source_goes_on && !cycle_windows_wait) return std::nullopt;
  if (env.wakeups.load(std::memory_order_acquire) != before) return std::nullopt;
  return earliest;
}

bool ThreadedDirector::advance_virtual_clock(Timestamp earliest) {
  if (earliest == kNever) return false;
  Timestamp was = virtual_clock_->now();
  virtual_clock_->advance_to(earliest);
  Timestamp now = virtual_clock_->now();
  for (ActorId id = 0; id < execution_->size(); ++id) {
    if (waiting_until_[id].load(std::memory_order_acquire) > now) continue;
    ActorCell& cell = execution_->cell(id);
    if (cell.is_source())
      ready_[id]->release();
    else
      cell.wake();
  }
  return now > was;
}

void ThreadedDirector::run(const RunOptions& options) {
  RunMonitor monitor(options);
  // Poll quickly at first (composites wait here once per outer firing), then back off.
  auto pause = std::chrono::microseconds(20);
  bool stopped = false;
  while (true) {
    if (monitor.stop_due()) {
      stopped = true;  // a stop drains, so it ends a pause
      execution_->stop_sources();
    }
    paused_.store(!stopped && options.pause_requested && options.pause_requested->load() &&
                      !monitor.suspend_wanted(),
                  std::memory_order_relaxed);
    monitor.progress();
    // Sources poll the hold: nothing to wake when it ends.
    monitor.checkpoint_turn(*execution_, [&] {
      // Drained as far as a look from outside can tell; with the gate held no cell runs, so a
      // second look is final.
      if (!execution_->drained()) return false;
      std::unique_lock gate(firing_gate_);
      if (!execution_->drained()) return false;
      monitor.write_checkpoint();
      // A suspension's checkpoint: no actor fires after it (a window deadline coming due before
      // the threads stop would otherwise close a window the checkpoint holds open).
      if (monitor.suspending() && !monitor.write_failed())
        frozen_.store(true, std::memory_order_relaxed);
      return true;
    });
    if (monitor.suspended()) return;  // the actor threads stop at shutdown, sources held
    if (monitor.time_is_up() && !execution_->quiescent()) {
      // Actor threads stop at shutdown; the runner counts what is left.
      execution_->env().time_was_up.store(true);
      return;
    }
    // Windows on a cycle close at their time first (Execution::cycle_window_deadline): a
    // virtual clock moves to it below; on a real one the actor's own thread waits for it.
    bool cycle_windows_wait = false;
    if (execution_->quiescent() &&
        !(execution_->env().end_of_input && !execution_->inlets_finished())) {
      if (!options.end_input_when_quiescent || execution_->env().end_of_input) return;
      cycle_windows_wait = execution_->cycle_window_deadline() != kNever;
      if (!cycle_windows_wait) {
        execution_->end_input();
        continue;
      }
    }
    // Sources held for a checkpoint: time must not move past their next events.
    if (virtual_clock_ && !paused_.load(std::memory_order_relaxed) &&
        !execution_->env().hold_sources.load(std::memory_order_relaxed)) {
      if (std::optional<Timestamp> earliest = only_time_is_left(cycle_windows_wait)) {
        // A sub-workflow's run (its input goes on) shares the parent's clock and leaves it to
        // the parent, which has its own events before that time and fires the sub-workflow
        // again at next_timer() (CompositeActor): it ends here instead of moving the clock.
        if (!options.end_input_when_quiescent) return;
        // Time moved: what it released takes a moment, so look again soon.
        if (advance_virtual_clock(*earliest)) pause = std::chrono::microseconds(20);
      }
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
}

void ThreadedDirector::shutdown() {
  if (threads_.empty()) return;
  shutting_down_ = true;
  execution_->stop_sources();
  for (auto& r : ready_)
    r->release();
  for (auto& t : threads_)
    t.join();
  threads_.clear();
}

}  // namespace cwf
