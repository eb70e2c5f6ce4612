// The thread-per-actor director (the seed's PNCWF, the baseline the schedulers are compared
// with): every actor has its own thread that blocks until its inputs have events; the OS
// schedules. Sources fire in a loop on their own thread, pacing themselves with the clock, and
// wait while a connection they feed is full (QueueLimits), as every other actor does. On a virtual
// clock, time moves only when nothing else can happen: every actor is idle and every unfinished
// source waits for a later time; then the clock jumps to the earliest time anyone waits for, as
// under the scheduled director. A sub-workflow's run never moves it: the clock is its parent's, and
// the parent may have events to deliver before that time.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <semaphore>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "runtime/execution/director.hpp"

namespace cwf {

class ThreadedDirector final : public Director, public ReadyListener {
 public:
  std::string_view name() const override { return "threaded"; }
  void start(Execution& execution) override;
  void run(const RunOptions& options) override;
  void shutdown() override;
  void make_ready(ActorCell& cell) override;
  Timestamp next_timer() override;
  ~ThreadedDirector() override { shutdown(); }

 private:
  void source_loop(ActorCell& cell);
  void actor_loop(ActorCell& cell);
  // Virtual clock: a source waits on its semaphore until the clock reaches `time`.
  void wait_for_virtual_time(ActorCell& cell, Timestamp time);
  // Virtual clock: when nothing but timers is left (every actor idle, every unfinished source
  // waiting for a time, and one at least unfinished, or all finished with windows on a cycle
  // waiting: `cycle_windows_wait`), the earliest time anyone waits for (kNever: none);
  // otherwise nullopt.
  std::optional<Timestamp> only_time_is_left(bool cycle_windows_wait) const;
  // Moves the clock to `earliest` and wakes the cells whose time has come. True if it moved.
  bool advance_virtual_clock(Timestamp earliest);

  Execution* execution_ = nullptr;
  std::vector<std::unique_ptr<std::counting_semaphore<>>> ready_;
  std::vector<std::thread> threads_;
  VirtualClock* virtual_clock_ = nullptr;
  // Per cell, published by its own thread before it goes idle: the time it waits for (a
  // source's next firing on a virtual clock, a receiver's window deadline; kNever: none). A
  // source that is not waiting for a time is busy.
  std::unique_ptr<std::atomic<Timestamp>[]> waiting_until_;
  std::atomic<bool> shutting_down_{false};
  std::atomic<bool> frozen_{false};  // a suspension's checkpoint is written: nothing fires
  // Mirrors the run's pause request; actor threads hold still between cycles while it is set.
  std::atomic<bool> paused_{false};
  void wait_while_paused() const;
  // Checkpoints: every thread runs its cell's turns holding this shared; run() takes it
  // exclusively to write a checkpoint once the workflow has drained, so that no actor fires
  // while its state is written. A source held for a checkpoint waits before its next turn.
  std::shared_mutex firing_gate_;
  ActorCell::CycleResult gated_run(ActorCell& cell, std::uint32_t max_firings);
  void wait_while_held() const;
};

}  // namespace cwf
