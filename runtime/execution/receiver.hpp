// The object on an actor's input port. Producers on any thread `put` events into its inbox (a
// lock-free multi-producer queue); the thread running the consumer actor drains the inbox into
// the receiver's window operator and fires the actor once per window. Window state is therefore
// only ever touched by one thread at a time.
//
// This file holds the inbox and the consumer-side contract; FifoReceiver (one event per window)
// is the plain queue. Windowed receivers implement the same contract.
#pragma once

#include <concurrentqueue.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "runtime/actor/case_id.hpp"
#include "runtime/actor/event.hpp"
#include "runtime/actor/window.hpp"

namespace cwf {

class ActorCell;
class SnapshotReader;
class SnapshotWriter;

// Producer-side handle of one connection into a receiver: keeps that producer's events in FIFO
// order even when the producing actor fires on different worker threads over time, and counts
// what the consumer took in, so that the producer can tell how full the connection is (it counts
// what it sent itself: neither side writes the other's counter, and no event costs an atomic
// read-modify-write).
class ReceiverProducer {
 public:
  static constexpr std::uint64_t kNotWaiting = std::numeric_limits<std::uint64_t>::max();

  ReceiverProducer(moodycamel::ConcurrentQueue<Event>& queue, std::size_t index,
                   ActorCell* producer)
      : token_(queue), index_(index), producer_(producer) {}
  moodycamel::ProducerToken& token() { return token_; }
  // The producer's number on its receiver: 0, 1, ... in the order they were made.
  std::size_t index() const { return index_; }

  // ---- back-pressure (QueueLimits) ----
  // Events of this connection the consumer has taken from the inbox so far.
  std::uint64_t taken() const { return taken_.load(std::memory_order_seq_cst); }
  // Producer: wake me once the consumer has taken `count` events in all. Returns false when it
  // already has (then nobody will wake the producer, and it need not wait).
  bool wake_when_taken(std::uint64_t count) {
    resume_at_.store(count, std::memory_order_seq_cst);
    if (taken_.load(std::memory_order_seq_cst) < count) return true;
    resume_at_.store(kNotWaiting, std::memory_order_relaxed);
    return false;
  }
  // Consumer: `count` more events taken; wakes a producer that waits for them. `alone`: the
  // producer never runs while the consumer does (one thread fires both, one at a time), so the
  // count needs no fence against a registration made meanwhile: a full fence per drain was most
  // of the cost of a hop that carries one event.
  void took(std::uint64_t count, bool alone = false);

 private:
  moodycamel::ProducerToken token_;
  std::size_t index_;
  ActorCell* producer_;  // null for events injected from outside the graph
  // Written by the consumer only; seq_cst with resume_at_, so that a producer that registers
  // after the consumer's last drain sees the drain, or the consumer sees the registration.
  std::atomic<std::uint64_t> taken_{0};
  std::atomic<std::uint64_t> resume_at_{kNotWaiting};
};

class Receiver {
 public:
  virtual ~Receiver() = default;

  // ---- producer side (any thread) ----
  // Made while the workflow is wired, before any event flows; the handle must outlive the run.
  // `producer`: the cell that sends through it (woken when a full connection has room again);
  // null for events injected from outside the graph.
  std::unique_ptr<ReceiverProducer> make_producer(ActorCell* producer = nullptr) {
    auto producer_handle = std::make_unique<ReceiverProducer>(inbox_, producers_.size(), producer);
    producers_.push_back(producer_handle.get());
    return producer_handle;
  }
  // Enqueue and wake the owning actor.
  void put(Event&& event, ReceiverProducer& producer);
  // Enqueue only; the producer wakes the owner later (once per batch, see ActorCell::send).
  void enqueue(Event&& event, ReceiverProducer& producer) {
    inbox_.enqueue(producer.token(), std::move(event));
  }
  ActorCell& owner() { return *owner_; }
  // Takes back the oldest event `producer` put in the inbox that the consumer has not taken yet
  // (an overload policy that drops the oldest); false if there is none.
  bool take_oldest(ReceiverProducer& producer, Event& out) {
    return inbox_.try_dequeue_from_producer(producer.token(), out);
  }

  // ---- consumer side (the thread running the owner) ----
  // Move everything waiting in the inbox into the window operator; returns how many events moved.
  // `alone`: ExecutionEnv::cells_fire_one_at_a_time.
  std::size_t drain(bool alone = false);
  virtual bool has_window() const = 0;
  // The earliest window ready to fire on; valid until finish_window().
  virtual Window front_window() = 0;
  // The actor fired (or declined, `fired` false) on the front window; `consumed` is its
  // delete-used post-condition.
  virtual void finish_window(bool fired, bool consumed) = 0;
  // Called on every run of the owner after drain(), with the workflow clock's time: time-based
  // operators close windows whose formation timeout has passed (and ask the owner for a wake-up
  // at their next deadline); at the end of input every open window closes.
  virtual void advance(Timestamp /*now*/, bool /*end_of_input*/) {}
  // Wave punctuations (see WaveTag::as_punctuation): a receiver with wave-based windows wants
  // them; a FIFO receiver hands them to its actor's cell, which passes them on unchanged.
  virtual bool wants_punctuation() const { return false; }
  virtual bool forwards_punctuation() const { return false; }
  // Progress (docs/architecture.md, "Progress"): whether the owner can tell from this receiver
  // how far its input has got, so that it can pass progress marks on (a FIFO queue, a window that
  // closes by time or tokens; not a wave window). Execution turns tracking on where progress is
  // wanted downstream; progress_time() is then the time before which nothing more will come out
  // of the receiver once its ready windows are fired on (kNoProgress: nothing known yet).
  virtual bool passes_progress() const { return false; }
  virtual void track_progress() {}
  virtual Timestamp progress_time() const { return kNoProgress; }
  // Producer `producer` delivers every wave started by the actors `source_ordinals` (whole, with
  // punctuations for what it does not deliver): a wave window waits for each of them.
  virtual void set_carried_sources(std::size_t /*producer*/,
                                   const std::vector<std::uint32_t>& /*source_ordinals*/) {}
  // ---- case cancellation (CWP4, consumer side) ----
  // The cases cancelled in the owner's scope (owned by the cell): an event of one of them that
  // arrives is not queued; it becomes a punctuation of its wave (see runtime/case_cancellation).
  void set_cancelled_cases(const std::vector<const CaseId*>* cases) { cancelled_ = cases; }
  // Removes the queued events of `cancelled` (as punctuations where a wave must still complete);
  // returns how many were removed. Not between front_window() and finish_window(). A receiver
  // that does not override it keeps the case's queued events (its late arrivals are still
  // dropped).
  virtual std::size_t cancel(const CaseId& /*cancelled*/) { return 0; }

  // Events held by the window operator, not counting the inbox (consumer thread only).
  virtual std::size_t buffered() const = 0;
  // Whether what is taken in waits until the actor fires on it (a FIFO queue), rather than
  // forming windows (which hold what their size asks for, however large): then drain() takes in
  // no more than the intake limit beyond what it holds.
  virtual bool holds_until_fired() const { return false; }
  void set_intake_limit(std::size_t limit) { intake_limit_ = limit; }
  // What other threads may read (queue lengths for progress and back-pressure): the count the
  // owner published at the end of its last run.
  void publish_buffered() { published_buffered_.store(buffered(), std::memory_order_relaxed); }
  std::size_t published_buffered() const {
    return published_buffered_.load(std::memory_order_relaxed);
  }
  std::size_t inbox_size() const { return inbox_.size_approx(); }

  // ---- checkpoints (receiver_snapshot.cpp), at a drained point: the inbox is empty and no
  // window is being fired on ----
  // Writes what decides the receiver's next windows; each kind adds its own state to the base's.
  // Throws std::logic_error when events still wait in the inbox (they would be lost).
  virtual void snapshot(SnapshotWriter& out) const;
  // Reads it into a receiver built for the same port and wired the same way (the same producers),
  // replacing what it holds. Throws SnapshotError for damaged bytes or a state that does not fit.
  virtual void restore(SnapshotReader& in);

  void attach(ActorCell* owner, int port) {
    owner_ = owner;
    port_ = port;
  }
  int port() const { return port_; }

 protected:
  // `producer`: the index of the producer the event came through.
  virtual void accept(Event&& event, std::size_t producer) = 0;

 private:
  // Up to `budget` of `producer`'s events from the inbox into the window operator (screened for
  // cancelled cases when kScreen); returns how many.
  template <bool kScreen>
  std::size_t take_from(ReceiverProducer& producer, std::size_t budget);
  // A late arrival of a cancelled case: counted, and left as a punctuation of its wave.
  void punctuate_if_cancelled(Event& event);
  moodycamel::ConcurrentQueue<Event> inbox_;
  std::vector<ReceiverProducer*> producers_;
  std::size_t next_first_producer_ = 0;  // where drain() starts next
  std::size_t intake_limit_ = std::numeric_limits<std::size_t>::max();
  std::atomic<std::size_t> published_buffered_{0};
  const std::vector<const CaseId*>* cancelled_ = nullptr;
  ActorCell* owner_ = nullptr;
  int port_ = 0;
};

// One event per window, in arrival order.
class FifoReceiver final : public Receiver {
 public:
  bool has_window() const override { return head_ < events_.size(); }
  Window front_window() override;
  void finish_window(bool fired, bool consumed) override;
  std::size_t buffered() const override { return events_.size() - head_; }
  bool holds_until_fired() const override { return true; }
  bool forwards_punctuation() const override { return true; }
  // Every event fires the actor in arrival order, with outputs stamped with its time: the
  // latest time taken in is how far the input got.
  bool passes_progress() const override { return true; }
  Timestamp progress_time() const override { return latest_; }
  std::size_t cancel(const CaseId& cancelled) override;
  void snapshot(SnapshotWriter& out) const override;
  void restore(SnapshotReader& in) override;

 protected:
  void accept(Event&& event, std::size_t) override {
    if (event.time > latest_) latest_ = event.time;
    events_.push_back(std::move(event));
  }

 private:
  // Destroys the consumed events at the front and moves the head back to 0.
  [[gnu::noinline]] void release_consumed();
  std::vector<Event> events_;
  std::size_t head_ = 0;
  std::uint64_t seq_ = 0;  // arrival number of events_[head_]
  Window prepared_;        // what front_window() starts from (see there)
  Timestamp latest_ = kNoProgress;
};

}  // namespace cwf
