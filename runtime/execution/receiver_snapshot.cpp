// Receivers in a checkpoint (Receiver::snapshot / restore). The base writes where the next drain
// starts (wave windows drain their producers in turn); a FIFO receiver adds its queued events and
// the arrival number of the first; a windowed receiver its window state (windowed_receiver.cpp).
#include <stdexcept>
#include <string>

#include "runtime/execution/receiver.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

void Receiver::snapshot(SnapshotWriter& out) const {
  if (inbox_.size_approx() != 0)
    throw std::logic_error("a receiver's snapshot with events still in its inbox");
  out.write_u64(next_first_producer_);
}

void Receiver::restore(SnapshotReader& in) {
  std::uint64_t first = in.read_u64("the producer drained first");
  if (first != 0 && first >= producers_.size())
    in.reject("the producer drained first", "the port has " + std::to_string(producers_.size()) +
                                                " producers, not " + std::to_string(first + 1));
  next_first_producer_ = static_cast<std::size_t>(first);
}

void FifoReceiver::snapshot(SnapshotWriter& out) const {
  Receiver::snapshot(out);
  out.write_u64(seq_);
  out.write_u64(events_.size() - head_);
  for (std::size_t i = head_; i < events_.size(); ++i)
    out.write_event(events_[i]);
}

void FifoReceiver::restore(SnapshotReader& in) {
  Receiver::restore(in);
  seq_ = in.read_u64("the next window's arrival number");
  const std::size_t n = in.read_count("the queued events");
  events_.clear();
  head_ = 0;
  events_.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    events_.push_back(in.read_event("a queued event"));
}

}  // namespace cwf
