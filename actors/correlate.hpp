// correlate: a request waits for its reply from outside the workflow, and the reply goes on in
// the request's wave (message correlation, as a BPM engine's receive task does it).
//
// A workflow that hands work to people or programs outside it (a warehouse manager's work list,
// an approval, a payment service) gets the answer back as a new external event, which starts a
// wave of its own: the lineage of the request would be lost, and a wave window downstream (CWP3:
// an order's items synchronised again for the shipping notice) could never close. correlate keeps
// it: a request with no reply yet defers its firing's output (FiringContext::defer), so wave
// windows downstream wait for it; the reply with the same key sends it (emit_deferred).
//
// Requests and replies are paired by key (`request_key` of a request == `reply_key` of a reply,
// compared as values), first come first answered per key. A request waits at most `timeout` after
// its time; then it leaves on `expired`, unchanged and still in its wave. A reply that finds no
// request waits as long for one (a reply may overtake its request between threads), then leaves
// on `unmatched`. A key that is null or fails is rejected (reported, counted). When the input
// ends, whatever still waits leaves the same way at once.
//
// Plain connections, one event per firing: a request's wave is kept when it is the only event of
// its window (behind a window, only a lone request keeps its wave; the others' replies start
// from the reply's).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"
#include "runtime/values/value.hpp"

namespace cwf::actors {

struct CorrelateOptions {
  Expression request_key;
  Expression reply_key;
  Duration timeout = 0;  // > 0
  Expression emit;       // over `request` and `reply`
};

class Correlate final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"request", "events that wait for a reply"},
       {"reply", "the replies, from outside the workflow"}},
      {{"out", "the value of `emit` for each request and its reply, in the request's wave"},
       {"expired", "requests with no reply within the timeout, unchanged, in their wave"},
       {"unmatched", "replies that found no request within the timeout, unchanged"}}};
  static constexpr int kRequest = 0, kReply = 1;
  static constexpr int kOut = 0, kExpired = 1, kUnmatched = 2;

  explicit Correlate(CorrelateOptions options);
  void fire(FiringContext& context) override;
  void end_of_input(FiringContext& context) override;
  void retract(const CaseId& cancelled, FiringContext& context) override;
  // A run stopped before its input ended (cwf run --for, a server's stop) loses what still
  // waits: reported as dropped.
  void wrapup(ActorContext& context) override;
  // The requests and replies waiting, with the wave tags of the deferred outputs.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

  std::size_t waiting_requests() const { return sides_[kRequest].entries.size(); }
  std::size_t waiting_replies() const { return sides_[kReply].entries.size(); }

 private:
  struct Entry {
    Event event;  // as it arrived (its wave: what a cancellation matches)
    Value key;
    Timestamp deadline = 0;
    bool deferred = false;  // `tag` is the firing's deferred output
    WaveTag tag;
  };
  // The entries of one side that wait, by arrival number; per key, oldest first; by deadline.
  struct Side {
    std::map<std::uint64_t, Entry> entries;
    std::unordered_map<Value, std::deque<std::uint64_t>, ValueHash> by_key;
    std::set<std::pair<Timestamp, std::uint64_t>> by_deadline;
    std::uint64_t next = 0;
    void add(Entry entry);
    // Removes and returns the oldest entry of `key`, if any.
    std::optional<Entry> take(const Value& key);
    Entry remove(std::uint64_t number);
  };

  void take_request(FiringContext& context, const Event& event, bool may_defer);
  void take_reply(FiringContext& context, const Event& event);
  std::optional<Value> key_of(FiringContext& context, int side, const Value& token);
  void answer(FiringContext& context, Entry& request, const Value& reply);
  void leave(FiringContext& context, int side, Entry& entry);
  void expire_through(FiringContext& context, Timestamp time, bool everything);

  // Asks for a timer at the earliest deadline still waiting, unless one is asked for by then.
  void arm(FiringContext& context);

  CorrelateOptions options_;
  Side sides_[2];
  std::set<Timestamp> armed_;  // timers asked for and not fired yet
};

ActorType correlate_type();

}  // namespace cwf::actors
