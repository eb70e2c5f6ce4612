// The second scheduling level (seed 002, l.1105-1144: a "grander scheduling" across the
// workflows an enactment system runs, by "the importance of each workflow"): a fixed number of
// workers that the directors of many workflows share. Each workflow keeps its own director and
// policy (the first level: which of its actors fires next); before a firing, its director takes
// one of the shared workers, and gives it back after. A free worker goes to the waiting workflow
// of highest priority, and among equal priorities to the one that asked first, so at most
// `workers` firings go on at once over all the workflows, and a workflow of higher priority
// waits at most for the firings under way to end, never behind a lower one's backlog.
//
// Strict priority: a workflow whose firings never let up keeps every lower one waiting; the
// time each workflow waited is counted (WorkerShare::waited_ns) so that it shows.
//
// A free worker is handed over to the waiter it is meant for (not left for whoever comes next),
// so a stream of requests from one workflow cannot overtake one of higher priority. And strict
// priority reaches inside a turn: a director firing on a shared worker looks between two
// firings whether a more important workflow waits, and ends its turn there if so
// (fire_on_shared_worker), so that a flood's long turns hold an important workflow up by one
// firing at most, not by a turn.
#pragma once

#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

namespace cwf {

class SharedWorkers;

// One workflow's claim on the shared workers: its priority (higher is more important; it may
// change while the workflow runs) and what it has drawn.
struct WorkerShare {
  SharedWorkers* workers = nullptr;
  std::atomic<int> priority{0};
  std::atomic<std::uint64_t> turns{0};      // workers taken
  std::atomic<std::uint64_t> waits{0};      // of those, the turns that had to wait
  std::atomic<std::uint64_t> waited_ns{0};  // total time waited for a worker
  // Its run is stopping or being suspended: it comes first, so that a workflow kept waiting by
  // more important ones can still end (its director acts on a stop between two grants).
  std::atomic<bool> finishing{false};

  // The priority its requests are served by (read by SharedWorkers under its mutex, so a change
  // reaches the requests already waiting at the next hand-over).
  int effective_priority() const {
    return finishing.load(std::memory_order_relaxed) ? INT_MAX
                                                     : priority.load(std::memory_order_relaxed);
  }
};

class SharedWorkers {
 public:
  // `workers` = 0: one per hardware thread.
  explicit SharedWorkers(unsigned workers);
  SharedWorkers(const SharedWorkers&) = delete;
  SharedWorkers& operator=(const SharedWorkers&) = delete;

  unsigned workers() const { return workers_; }
  // Workers taken now.
  unsigned busy() const;
  // Workflows waiting for one now.
  std::size_t waiting() const;

  // A workflow drawing on these workers from now on (until leave): while one more important than
  // another is there, the other's firings let the operating system run the important one's
  // threads first (outranked_by_member), which it would otherwise leave waiting for a time
  // slice behind the busy ones.
  void join(const WorkerShare& share);
  void leave(const WorkerShare& share);
  // After a priority (or `finishing`) changed: requests already waiting are ranked by it from
  // the next hand-over on.
  void priorities_changed();
  bool outranked_by_member(const WorkerShare& share) const {
    return most_important_member_.load(std::memory_order_relaxed) >
           share.priority.load(std::memory_order_relaxed);
  }
  // Whether a workflow more important than `share`'s waits for a worker (one relaxed load).
  bool outranked(const WorkerShare& share) const {
    return most_important_waiting_.load(std::memory_order_relaxed) > share.effective_priority();
  }

  // Blocks until a worker is free for `share` (see above), then holds it. Returns how long it
  // waited (ns).
  std::uint64_t take(WorkerShare& share);
  // Gives back a worker taken by take().
  void give_back();

 private:
  struct Waiter {
    const WorkerShare* share = nullptr;
    std::uint64_t ticket = 0;  // order of arrival
    bool granted = false;
    std::condition_variable ready;
  };

  unsigned workers_;
  mutable std::mutex mutex_;
  unsigned busy_ = 0;
  std::uint64_t next_ticket_ = 0;
  std::vector<Waiter*> waiters_;  // few: one per waiting director worker
  // The highest priority in waiters_ (INT_MIN: none), for outranked() without the mutex.
  std::atomic<int> most_important_waiting_;
  std::vector<const WorkerShare*> members_;
  std::atomic<int> most_important_member_;
  void note_most_important_member();
  void note_most_important_waiting();
};

}  // namespace cwf
