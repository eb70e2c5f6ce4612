// What every push source shares between the event loop that receives (IoLoop) and the actor
// that emits: a lock-free queue of records and malformed lines, bounded by `max_pending` (the
// loop stops reading — or answers "busy" — while it is full, so memory does not grow with a
// sender faster than the workflow), the source's ExternalWake, and what the actor reports:
// connections refused, the end of the input.
//
// The actor's side is PushInbox::emit: one firing's batch to `out` (records, each stamped with
// its `time` expression or the clock's time) and to `errors` (malformed lines with the reason).
#pragma once

#include <concurrentqueue.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "actors/net/record_decoder.hpp"
#include "runtime/actor/actor_context.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/time/clock.hpp"

namespace cwf::net {

// "ip:port" of a connection, named in the reports of its malformed lines.
using PeerName = std::shared_ptr<const std::string>;

// Options every push source has.
struct PushSourceOptions {
  std::optional<Expression> time;  // event timestamp; unset: the clock's now when emitted
  Duration time_unit = kSecond;
  std::size_t max_message = 1 << 20;
  std::size_t max_pending = 65536;
  std::int64_t batch = 256;
  std::optional<std::int64_t> limit;
};

class PushInbox {
 public:
  PushInbox(std::size_t max_pending, ExternalWake wake)
      : max_pending_(max_pending), wake_(std::move(wake)) {}

  // ---- the event loop's side (any thread) ----
  // `line` from `peer` (shared by the lines of a connection: no copy per record), queued; the
  // source is woken by wake() (once per read, not per line).
  void push(DecodedLine line, const PeerName& peer);
  void wake() const { wake_.wake(); }
  bool full() const { return pending_.load() >= max_pending_; }  // seq_cst: see has_waiting_
  void count_refused() {
    refused_.fetch_add(1, std::memory_order_relaxed);
    wake();
  }
  // No more will come: the source ends once it emitted what waits.
  void mark_ended() {
    ended_.store(true);
    wake();
  }
  // A reader stopped because the inbox was full: `resume` runs (on the loop) once there is
  // room again. Returns false when there is room already (the caller reads on at once).
  bool wait_for_room(std::function<void()> resume);

  // ---- the actor's side ----
  struct Emitted {
    std::int64_t records = 0;  // to `out`
    std::int64_t taken = 0;    // records and malformed lines
  };
  // The run ended: readers waiting for room are let go (they hold what holds this inbox).
  void drop_waiting() {
    std::lock_guard lock(room_mutex_);
    resumes_.clear();
    has_waiting_.store(false);
  }
  // Emits up to options.batch items (records to `out_port`, malformed ones reported and, when
  // connected, to `errors_port` as {peer, text, error}), at most `room` records. `what` names the
  // source in reports.
  Emitted emit(FiringContext& context, const PushSourceOptions& options, std::int64_t room,
               int out_port, int errors_port, const std::string& what);
  // After a firing that took nothing: true when no more will come (the source ends), else the
  // source waits for its wake.
  bool idle(FiringContext& context) const {
    if (ended() && pending() == 0) return true;
    context.await_input();
    return false;
  }
  std::size_t pending() const { return pending_.load(); }
  bool ended() const { return ended_.load(); }

 private:
  struct Item {
    DecodedLine line;
    PeerName peer;
  };
  const std::size_t max_pending_;
  ExternalWake wake_;
  moodycamel::ConcurrentQueue<Item> queue_;
  std::atomic<std::size_t> pending_{0};
  std::atomic<std::uint64_t> refused_{0};
  std::atomic<bool> ended_{false};
  // Readers waiting for room: set before a reader looks at full() again, read after the actor
  // made room (both sequentially consistent), so that one of the two sees the other.
  std::atomic<bool> has_waiting_{false};
  std::mutex room_mutex_;  // guards resumes_
  std::vector<std::function<void()>> resumes_;
};

}  // namespace cwf::net
