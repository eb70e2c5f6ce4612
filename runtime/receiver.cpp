#include "runtime/receiver.hpp"

#include "runtime/actor_cell.hpp"

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

std::size_t Receiver::drain() {
  // Bounded, so that a producer on another thread that is faster than this consumer cannot keep
  // it draining forever; what is left is drained on the next run.
  constexpr std::size_t kBulk = 256, kMaxPerDrain = 1 << 16;
  std::size_t total = 0;
  if (!wants_punctuation()) {
    // Where events come from does not matter: the inbox picks.
    auto accept_one = [this](Event&& event) { accept(std::move(event), 0); };
    AcceptingIterator<decltype(accept_one)> into(accept_one);
    while (total < kMaxPerDrain) {
      std::size_t n = inbox_.try_dequeue_bulk(into, kBulk);
      total += n;
      if (n < kBulk) break;
    }
    return total;
  }
  // Wave windows complete a wave per producer (WaveCompletion): drain each one knowingly,
  // starting with a different one each time so that none waits behind a flood from another.
  const std::size_t n = producers_.size();
  if (n == 0) return 0;
  const std::size_t first = next_first_producer_;
  next_first_producer_ = (first + 1) % n;
  for (std::size_t k = 0; k < n; ++k) {
    ReceiverProducer* producer = producers_[(first + k) % n];
    std::size_t index = producer->index();
    auto accept_one = [this, index](Event&& event) { accept(std::move(event), index); };
    AcceptingIterator<decltype(accept_one)> into(accept_one);
    while (total < kMaxPerDrain) {
      std::size_t n = inbox_.try_dequeue_bulk_from_producer(producer->token(), into, kBulk);
      total += n;
      if (n < kBulk) break;
    }
  }
  return total;
}

Window FifoReceiver::front_window() {
  Event& event = events_[head_];
  Window window;
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
  // actor fired on it. Consumed events are destroyed in bulk when the buffer runs dry.
  if (++head_ == events_.size()) {
    events_.clear();
    head_ = 0;
  } else if (head_ >= 4096 && head_ * 2 >= events_.size()) {
    // A queue that never runs dry still gives back the space of consumed events.
    events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

}  // namespace cwf
