// Stamps the outputs of one actor (seed 4.5). While the actor fires on a window of wave `t`, the
// n-th emitted token becomes an event of wave `t.n` with the window's timestamp, and the final
// output of the firing is marked last. Because "final" is only known when the firing ends, the
// most recent output is held back until the next emit or the end of the firing.
//
// A source has no input wave: every token it emits starts a new wave whose root is the token's
// timestamp plus a per-source sequence number.
//
// An actor that answers an event only later (a request waiting for its reply from outside the
// workflow) defers the firing's last output: defer() numbers it now, after everything emitted so
// far, and marks it last, so that wave windows downstream wait for it; the actor sends it in a
// later firing under that tag (FiringContext::emit_deferred).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "runtime/actor/event.hpp"
#include "runtime/execution/receiver.hpp"

namespace cwf {

class SnapshotReader;
class SnapshotWriter;

class TimeKeeper {
 public:
  // `source_ordinal` keeps the root sequence numbers of different sources apart: source k numbers
  // its waves k·2^40 + 1, + 2, ... (the first source simply 1, 2, 3, ...).
  explicit TimeKeeper(std::uint32_t source_ordinal = 0)
      : next_root_sequence_((static_cast<std::uint64_t>(source_ordinal) << kOrdinalShift) + 1) {}
  // The ordinal of the source that started a wave, from its root sequence number.
  static constexpr std::uint64_t source_ordinal_of(std::uint64_t root_sequence) {
    return root_sequence >> kOrdinalShift;
  }

  void begin_firing(const Window& window) {
    input_time_ = window.time;
    input_wave_ = window.wave;
    output_time_ = window.time;
    children_ = 0;
    deferred_ = false;
    child_ports_.clear();
  }
  void begin_source_firing(Timestamp now) {
    input_wave_ = nullptr;
    output_time_ = now;
    children_ = 0;
    deferred_ = false;
  }
  void set_output_time(Timestamp time) { output_time_ = time; }

  // Hands `send(port, Event&&)` the previously held-back output, if any, and holds this one.
  template <typename Send>
  void emit(int port, Value token, Send&& send) {
    if (deferred_) throw std::logic_error("nothing may be emitted after a deferred output");
    if (input_wave_ == nullptr) {
      send(port,
           Event{std::move(token), output_time_, WaveTag(output_time_, next_root_sequence_++)});
      return;
    }
    if (holding_) flush(false, send);
    held_ = Held{port, std::move(token), output_time_};
    holding_ = true;
  }
  // Sends the held-back output (if any) so that an explicitly stamped event keeps its order.
  template <typename Send>
  void flush_before_explicit(Send&& send) {
    if (holding_) flush(false, send);
  }
  template <typename Send>
  void end_firing(Send&& send) {
    if (holding_) flush(true, send);
  }
  // The tag of this firing's last child, kept for later: the held-back output goes first (not
  // last any more). With port tracking on, the deferred child's port is -1 until it is sent.
  // Throws std::logic_error in a firing without an input wave (a source's, a timer's, the end of
  // input's) and when this firing already deferred one.
  template <typename Send>
  WaveTag defer(Send&& send) {
    if (input_wave_ == nullptr || input_wave_->empty())
      throw std::logic_error("only a firing on an event can defer an output");
    if (deferred_) throw std::logic_error("a firing defers one output at most");
    if (holding_) flush(false, send);
    ++children_;
    if (track_ports_) child_ports_.push_back(-1);
    deferred_ = true;
    return input_wave_->child(children_, true);
  }

  std::uint32_t children() const { return children_; }
  // With tracking on (a multi-output actor feeding wave windows), the output port of each child
  // of the current firing, in child order.
  void track_ports(bool on) { track_ports_ = on; }
  bool tracks_ports() const { return track_ports_; }
  const std::vector<int>& child_ports() const { return child_ports_; }
  Timestamp input_time() const { return input_time_; }
  Timestamp output_time() const { return output_time_; }
  // The root sequence the next token of a source will get.
  std::uint64_t next_root_sequence() const { return next_root_sequence_; }
  const WaveTag* input_wave() const { return input_wave_; }

  // Checkpoints (time_keeper.cpp): the wave numbering, so that a resumed run goes on with the
  // next root sequence instead of starting the actor's waves again (a wave root must never
  // repeat). What a firing holds is not state between firings. restore() refuses a sequence from
  // another actor's numbering space with a SnapshotError.
  void snapshot(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  template <typename Send>
  void flush(bool last, Send& send) {
    ++children_;
    if (track_ports_) child_ports_.push_back(held_.port);
    send(held_.port,
         Event{std::move(held_.token), held_.time, input_wave_->child(children_, last)});
    holding_ = false;
  }

  static constexpr int kOrdinalShift = 40;

  Timestamp input_time_ = 0;
  Timestamp output_time_ = 0;
  const WaveTag* input_wave_ = nullptr;
  std::uint32_t children_ = 0;
  std::uint64_t next_root_sequence_;
  struct Held {
    int port;
    Value token;
    Timestamp time;
  };
  Held held_{};
  bool holding_ = false;
  bool deferred_ = false;
  bool track_ports_ = false;
  std::vector<int> child_ports_;
};

}  // namespace cwf
