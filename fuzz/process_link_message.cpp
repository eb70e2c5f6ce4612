// Fuzzes the reading of what arrives on a process link (actors/pubsub/process_link_message.hpp):
// bytes from a NATS subject that anyone on the server may publish to. A SnapshotError is
// expected for bytes that are not a message; what reads must encode back to exactly the input's
// bytes (the snapshot encoding has one form per content), and a crash, undefined behaviour, a
// leak, a hang or any other exception is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "actors/pubsub/process_link_message.hpp"
#include "runtime/snapshot/snapshot_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> bytes(data, size);
  cwf::pubsub::ProcessLinkMessage message;
  try {
    message = cwf::pubsub::decode_process_link_message(bytes);
  } catch (const cwf::SnapshotError&) {
    return 0;
  }
  std::vector<std::uint8_t> again = cwf::pubsub::encode(message);
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) {
    std::fprintf(stderr, "a message that read was not written back as the same bytes\n");
    std::abort();
  }
  return 0;
}
