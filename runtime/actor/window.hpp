// What an actor fires on: a window of events from one input port, with the time, wave, group and
// bounds its outputs are stamped and described with. Part of the actor author's view of the
// runtime; the receivers that form windows (runtime/execution/receiver.hpp) are not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "runtime/actor/event.hpp"

namespace cwf {

// Where a window cut by time lies in event time: the window of a time step is its period
// [start, end) = [L, L + step) (with a time size, [L, L + size)); a time size after a wave step
// covers [t0, t0 + size); a time size that looks back (after a token step, or without a step)
// from its stepping event at t covers (t - size, t], `closed_at_end`.
struct WindowInterval {
  Timestamp start = 0;
  Timestamp end = 0;
  bool closed_at_end = false;  // (start, end] instead of [start, end)

  bool operator==(const WindowInterval&) const = default;
};

// A bundle of events the actor fires on once, with the time and wave the time keeper stamps the
// firing's outputs from.
//
// For incremental actors (window aggregates) it also says where the events come from: the group
// of the port's group-by they belong to, and their arrival numbers in that group (the events of a
// group are numbered 0, 1, 2, ... as they arrive, whether or not some are later deleted as used
// or expire). With `contiguous` the window holds every event still queued in its group whose
// number lies between the first and the last one's, so an actor that kept the events of an
// earlier window can drop those numbered before `first_seq` and add those after the last one it
// holds, instead of recomputing.
struct Window {
  std::span<const Event> events;
  Timestamp time = 0;
  const WaveTag* wave = nullptr;
  // Stable index of the group on the port (0 without group-by), and its key (null without).
  std::size_t group = 0;
  const Value* key = nullptr;
  // The arrival number of events[0] (of the next event to arrive when the window is empty),
  // and of each event, ascending.
  std::uint64_t first_seq = 0;
  std::span<const std::uint64_t> seqs = {};
  bool contiguous = true;
  // When the events belong to the receiver and leave it with this window whatever the actor does
  // (a FIFO port): the same events, writable, since nothing reads their tokens afterwards and
  // the actor may move them out (FiringContext::take) instead of copying. Empty otherwise.
  std::span<Event> owned = {};
  // The window's interval when it is cut by time (even when empty); none for token and wave
  // windows and one-event FIFO windows.
  std::optional<WindowInterval> interval = std::nullopt;

  // The window's bounds as outputs report them (window_start and window_end): its interval's, or
  // else the timestamps of its first and last event; none for an empty window without interval.
  std::optional<Timestamp> start() const {
    if (interval) return interval->start;
    if (events.empty()) return std::nullopt;
    return events.front().time;
  }
  std::optional<Timestamp> end() const {
    if (interval) return interval->end;
    if (events.empty()) return std::nullopt;
    return events.back().time;
  }
};

}  // namespace cwf
