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

// What happened to the events an actor took in, beyond the firings: the counters that decide
// whether a run was complete (docs/workflow-yaml.md, "Exit status").
struct ActorStats {
  Counter firings;     // fire() calls
  Counter cost_ns;     // time spent in prefire/fire/postfire, measured by the director
  Counter events_in;   // events taken from the input queues
  Counter events_out;  // events emitted
  Counter rejected;    // input the actor refused as invalid (a malformed line, an unknown instance)
  Counter failed;      // firings that threw: their window's events were not processed
  Counter dropped;     // events the engine discarded (no group key, arrived after the actor ended)
  Counter lost;        // events a sink took but could not confirm were written or delivered
  Counter warnings;    // input kept in part (one field out of range), reported by the actor
  Counter late;        // events that arrived after the window they belonged to had closed
  Counter expired;     // events that left every window unused (sent to `expired_to` if set)
  // Events of a cancelled case removed from the input queues and windows or dropped on arrival
  // (CWP4): removed on purpose, so not a problem of the run.
  Counter cancelled;
  Counter retractions;  // retraction records emitted for outputs of a cancelled case
};

}  // namespace cwf
