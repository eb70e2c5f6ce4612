// What travels on a process link (docs/architecture.md, "Processes"): the messages a process
// outlet publishes for one input port in another process, in the snapshot encoding
// (runtime/snapshot/snapshot_format.hpp), which keeps every event whole: token, time and wave.
//
//   batch: kind 0, sender process, sequence of its first event, count, events
//   end:   kind 1, sender process, events sent in all
//
// Sequences count a sender's events on one link from 0, so that the receiving inlet sees a
// message lost or repeated as a gap or an overlap, and an end tells it how many to expect.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "runtime/actor/event.hpp"

namespace cwf::pubsub {

struct ProcessLinkMessage {
  enum class Kind : std::uint8_t { batch = 0, end = 1 };
  Kind kind = Kind::batch;
  std::uint32_t sender = 0;
  std::uint64_t sequence = 0;  // batch: its first event's; end: events sent in all
  std::vector<Event> events;   // batch only
};

std::vector<std::uint8_t> encode(const ProcessLinkMessage& message);
// Throws SnapshotError (naming what and where) for bytes that are not such a message.
ProcessLinkMessage decode_process_link_message(std::span<const std::uint8_t> bytes);

}  // namespace cwf::pubsub
