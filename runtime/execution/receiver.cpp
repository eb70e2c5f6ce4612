#include "runtime/execution/receiver.hpp"

#include "runtime/execution/actor_cell.hpp"

#include <algorithm>

namespace cwf {

void Receiver::put(Event&& event, ReceiverProducer& producer) {
  inbox_.enqueue(producer.token(), std::move(event));
  owner_->notify();
}

namespace {
// Lets the inbox's bulk dequeue hand each event straight to the window operator, without an
// intermediate array.
template <typename Accept>
class AcceptingIterator {
 public:
  explicit AcceptingIterator(Accept& accept) : accept_(&accept) {}
  AcceptingIterator& operator*() { return *this; }
  AcceptingIterator& operator++() { return *this; }
  AcceptingIterator& operator++(int) { return *this; }
  AcceptingIterator& operator=(Event&& event) {
    (*accept_)(std::move(event));
    return *this;
  }

 private:
  Accept* accept_;
};
}  // namespace

std::size_t Receiver::drain(bool alone) {
  // Bounded, so that a producer on another thread that is faster than this consumer cannot keep
  // it draining forever; what is left is drained on the next run. A FIFO queue takes in no more
  // than its connections' capacity beyond what it still holds: what it takes in waits there
  // until the actor fires on it, so a bigger intake would only move the backlog past the bound.
  constexpr std::size_t kMaxPerDrain = 1 << 16;
  std::size_t budget = kMaxPerDrain;
  if (holds_until_fired()) {
    std::size_t held = buffered();
    budget = std::min<std::size_t>(budget, intake_limit_ > held ? intake_limit_ - held : 0);
  }
  const std::size_t producers = producers_.size();
  if (producers == 0 || budget == 0) return 0;
  // Whether arrivals must be screened for cancelled cases, asked once per drain, not per event.
  const bool screen = cancelled_ && !cancelled_->empty();
  std::size_t total = 0;
  // Each producer's events knowingly, for its taken count (back-pressure) and because wave
  // windows complete a wave per producer (WaveCompletion). Connection by connection in the order
  // they were made (the file's), so that a run on one worker is repeatable; after a drain that
  // the budget cut short, the next starts where it stopped, so that none waits behind a flood
  // from another.
  const std::size_t first = next_first_producer_;
  next_first_producer_ = 0;
  for (std::size_t k = 0; k < producers; ++k) {
    const std::size_t at = (first + k) % producers;
    if (total >= budget) {
      next_first_producer_ = at;
      break;
    }
    ReceiverProducer& producer = *producers_[at];
    const std::size_t taken = screen ? take_from<true>(producer, budget - total)
                                     : take_from<false>(producer, budget - total);
    total += taken;
    if (taken > 0) producer.took(taken, alone);
  }
  return total;
}

template <bool kScreen>
std::size_t Receiver::take_from(ReceiverProducer& producer, std::size_t budget) {
  constexpr std::size_t kBulk = 256;
  auto accept_one = [this, index = producer.index()](Event&& event) {
    if constexpr (kScreen)
      if (!event.wave.is_punctuation()) punctuate_if_cancelled(event);
    accept(std::move(event), index);
  };
  AcceptingIterator<decltype(accept_one)> into(accept_one);
  std::size_t taken = 0;
  while (taken < budget) {
    std::size_t want = std::min(kBulk, budget - taken);
    std::size_t got = inbox_.try_dequeue_bulk_from_producer(producer.token(), into, want);
    taken += got;
    if (got < want) break;
  }
  return taken;
}

void ReceiverProducer::took(std::uint64_t count, bool alone) {
  std::uint64_t now = taken_.load(std::memory_order_relaxed) + count;
  if (alone) {
    // A registration was made before this drain began, in an earlier firing on the same
    // thread or on another thread the director's hand-over ordered before this one.
    taken_.store(now, std::memory_order_relaxed);
    if (now < resume_at_.load(std::memory_order_relaxed)) return;
  } else {
    taken_.store(now, std::memory_order_seq_cst);
    if (now < resume_at_.load(std::memory_order_seq_cst)) return;
  }
  if (resume_at_.exchange(kNotWaiting, std::memory_order_acq_rel) != kNotWaiting && producer_)
    producer_->notify();
}

void Receiver::punctuate_if_cancelled(Event& event) {
  for (const CaseId* c : *cancelled_)
    if (c->matches(event)) {
      if (owner_) owner_->stats().cancelled.add();  // tests drive receivers without a cell
      event = Event{Value(), event.time, event.wave.as_punctuation()};
      return;
    }
}

std::size_t FifoReceiver::cancel(const CaseId& cancelled) {
  std::size_t removed = 0;
  for (std::size_t i = head_; i < events_.size(); ++i) {
    Event& event = events_[i];
    if (event.wave.is_punctuation() || !cancelled.matches(event)) continue;
    // In place: the queue keeps its order and the wave still hears of this leaf.
    event = Event{Value(), event.time, event.wave.as_punctuation()};
    ++removed;
  }
  return removed;
}

Window FifoReceiver::front_window() {
  // Copied from a prepared window rather than built in place: GCC zeroes a Window built in
  // place with `rep stos` first, whose start-up cost was most of a hop's time on this path.
  Event& event = events_[head_];
  Window window = prepared_;
  window.events = std::span<const Event>(&event, 1);
  window.time = event.time;
  window.wave = &event.wave;
  window.first_seq = seq_;
  window.seqs = std::span<const std::uint64_t>(&seq_, 1);
  window.owned = std::span<Event>(&event, 1);
  return window;
}

void FifoReceiver::finish_window(bool, bool) {
  ++seq_;
  // A one-token window with step one: the event leaves every future window whether or not the
  // actor fired on it. Consumed events are destroyed in bulk when the buffer runs dry; a queue
  // that never runs dry still gives back the space of consumed events.
  if (++head_ == events_.size() || (head_ >= 4096 && head_ * 2 >= events_.size())) [[unlikely]]
    release_consumed();
}

// Out of line: the per-window path above stays a few instructions with no register saves.
void FifoReceiver::release_consumed() {
  if (head_ == events_.size())
    events_.clear();
  else
    events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(head_));
  head_ = 0;
}

}  // namespace cwf
