// Per-actor counters, always on. Each counter has one writer (the thread running the actor, or
// the producer for `received`), so updates are a relaxed load+store, not a locked instruction;
// readers (progress lines, schedulers, summaries) see a recent value.
#pragma once

#include <atomic>
#include <cstdint>

namespace cwf {

class Counter {
 public:
  void add(std::uint64_t n = 1) noexcept {
    value_.store(value_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  std::uint64_t get() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> value_{0};
};

struct ActorStats {
  Counter firings;     // fire() calls
  Counter cost_ns;     // time spent in prefire/fire/postfire, measured by the director
  Counter events_in;   // events taken from the input queues
  Counter events_out;  // events emitted
  Counter errors;      // malformed input and failed firings reported by the actor
  Counter warnings;    // input kept in part (one field out of range, say), reported by the actor
  Counter dropped;     // events discarded by the engine (arrived after the actor finished, ...)
  Counter late;        // events that arrived after the window they belonged to had closed
  Counter expired;     // events that left every window unused (sent to `expired_to` if set)
};

}  // namespace cwf
