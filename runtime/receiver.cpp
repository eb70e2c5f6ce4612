#include "runtime/receiver.hpp"

#include "runtime/actor_cell.hpp"

namespace cwf {

void Receiver::put(Event&& event, ReceiverProducer& producer) {
  inbox_.enqueue(producer.token(), std::move(event));
  owner_->notify();
}

std::size_t Receiver::drain() {
  constexpr std::size_t kBatch = 64;
  Event batch[kBatch];
  std::size_t total = 0;
  while (true) {
    std::size_t n = inbox_.try_dequeue_bulk(batch, kBatch);
    for (std::size_t i = 0; i < n; ++i)
      accept(std::move(batch[i]));
    total += n;
    if (n < kBatch) return total;
  }
}

Window FifoReceiver::front_window() {
  const Event& event = events_[head_];
  return Window{std::span<const Event>(&event, 1), event.time, &event.wave};
}

void FifoReceiver::finish_window(bool, bool) {
  // A one-token window with step one: the event leaves every future window whether or not the
  // actor fired on it.
  events_[head_] = Event{};
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
