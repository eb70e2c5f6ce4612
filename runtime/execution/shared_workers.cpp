#include "runtime/execution/shared_workers.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace cwf {

SharedWorkers::SharedWorkers(unsigned workers)
    : workers_(workers > 0 ? workers : std::max(1u, std::thread::hardware_concurrency())),
      most_important_waiting_(INT_MIN),
      most_important_member_(INT_MIN) {}

void SharedWorkers::note_most_important_member() {
  int most = INT_MIN;
  for (const WorkerShare* m : members_)
    most = std::max(most, m->priority.load(std::memory_order_relaxed));
  most_important_member_.store(most, std::memory_order_relaxed);
}

void SharedWorkers::join(const WorkerShare& share) {
  std::lock_guard lock(mutex_);
  members_.push_back(&share);
  note_most_important_member();
}

void SharedWorkers::priorities_changed() {
  std::lock_guard lock(mutex_);
  note_most_important_member();
  note_most_important_waiting();
}

void SharedWorkers::leave(const WorkerShare& share) {
  std::lock_guard lock(mutex_);
  std::erase(members_, &share);
  note_most_important_member();
}

void SharedWorkers::note_most_important_waiting() {
  int most = INT_MIN;
  for (const Waiter* w : waiters_)
    most = std::max(most, w->share->effective_priority());
  most_important_waiting_.store(most, std::memory_order_relaxed);
}

unsigned SharedWorkers::busy() const {
  std::lock_guard lock(mutex_);
  return busy_;
}

std::size_t SharedWorkers::waiting() const {
  std::lock_guard lock(mutex_);
  return waiters_.size();
}

std::uint64_t SharedWorkers::take(WorkerShare& share) {
  share.turns.fetch_add(1, std::memory_order_relaxed);
  std::unique_lock lock(mutex_);
  if (busy_ < workers_ && waiters_.empty()) {
    ++busy_;
    return 0;
  }
  auto started = std::chrono::steady_clock::now();
  Waiter self;
  self.share = &share;
  self.ticket = next_ticket_++;
  waiters_.push_back(&self);
  note_most_important_waiting();
  self.ready.wait(lock, [&] { return self.granted; });  // give_back() counted us busy
  const auto waited =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now() - started)
                                     .count());
  share.waits.fetch_add(1, std::memory_order_relaxed);
  share.waited_ns.fetch_add(waited, std::memory_order_relaxed);
  return waited;
}

void SharedWorkers::give_back() {
  std::lock_guard lock(mutex_);
  if (waiters_.empty()) {
    --busy_;
    return;
  }
  // The worker goes straight to the most important waiter, the earliest among equals; busy_
  // stays as it is.
  auto best = std::min_element(waiters_.begin(), waiters_.end(), [](Waiter* a, Waiter* b) {
    const int pa = a->share->effective_priority(), pb = b->share->effective_priority();
    return pa != pb ? pa > pb : a->ticket < b->ticket;
  });
  Waiter* chosen = *best;
  waiters_.erase(best);
  note_most_important_waiting();
  chosen->granted = true;
  chosen->ready.notify_one();
}

}  // namespace cwf
