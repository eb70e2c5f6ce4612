#include "actors/pubsub/process_link_message.hpp"

#include <limits>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::pubsub {

std::vector<std::uint8_t> encode(const ProcessLinkMessage& message) {
  SnapshotWriter out;
  out.write_u64(static_cast<std::uint64_t>(message.kind));
  out.write_u64(message.sender);
  out.write_u64(message.sequence);
  if (message.kind == ProcessLinkMessage::Kind::batch) {
    out.write_u64(message.events.size());
    for (const Event& event : message.events)
      out.write_event(event);
  }
  return out.take_bytes();
}

ProcessLinkMessage decode_process_link_message(std::span<const std::uint8_t> bytes) {
  SnapshotReader in(bytes);
  ProcessLinkMessage message;
  std::uint64_t kind = in.read_u64("the message kind");
  if (kind > 1) in.reject("the message kind", "expected 0 (events) or 1 (end)");
  message.kind = static_cast<ProcessLinkMessage::Kind>(kind);
  std::uint64_t sender = in.read_u64("the sending process");
  if (sender > std::numeric_limits<std::uint32_t>::max())
    in.reject("the sending process", "out of range");
  message.sender = static_cast<std::uint32_t>(sender);
  message.sequence = in.read_u64("the sequence");
  if (message.kind == ProcessLinkMessage::Kind::batch) {
    std::size_t count = in.read_count("the event count");
    message.events.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
      message.events.push_back(in.read_event());
  }
  if (!in.at_end()) in.reject("the message", "bytes left after its end");
  return message;
}

}  // namespace cwf::pubsub
