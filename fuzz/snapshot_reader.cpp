// Fuzzes the readers of checkpoints: the input is taken once as a checkpoint file
// (verify_checkpoint: magic, version, length, checksum; what verifies is read as a snapshot) and
// once as a snapshot itself. A snapshot is read as a script: a varint chooses what comes next (a
// value, an event, a wave tag, a string, a double, a bool, a section entered, left, skipped or
// given up), until the bytes end. Everything read is written again by a SnapshotWriter, and what
// reads without error must be written back as exactly the input's bytes: the encoding has one
// form per content, so a reader that accepted something the writer would not produce, or read
// something other than what was written, is a finding.
// A SnapshotError for damaged input is expected; a crash, undefined behaviour, a leak, a hang or
// any other exception is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "runtime/snapshot/checkpoint_file.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace {

enum Step : std::uint64_t {
  kValue,
  kEvent,
  kWaveTag,
  kString,
  kDouble,
  kBool,
  kBeginSection,
  kEndSection,
  kSkipSection,
  kAbandonSection,
  kSteps
};

void replay(std::span<const std::uint8_t> bytes) {
  cwf::SnapshotReader in(bytes);
  cwf::SnapshotWriter out;
  bool mirrored = true;  // a skipped or given-up section is not read, so not written back
  try {
    for (;;) {
      if (in.at_end()) {
        if (in.open_sections() == 0) break;
        in.end_section();
        out.end_section();
        continue;
      }
      const std::uint64_t step = in.read_u64("the step");
      out.write_u64(step);
      switch (step % kSteps) {
        case kValue:
          out.write_value(in.read_value());
          break;
        case kEvent:
          out.write_event(in.read_event());
          break;
        case kWaveTag:
          out.write_wave_tag(in.read_wave_tag());
          break;
        case kString:
          out.write_string(in.read_string());
          break;
        case kDouble:
          out.write_double(in.read_double());
          break;
        case kBool:
          out.write_bool(in.read_bool());
          break;
        case kBeginSection:
          out.begin_section(in.begin_any_section());
          break;
        case kEndSection:
          if (in.open_sections() > 0) {
            in.end_section();
            out.end_section();
          }
          break;
        case kSkipSection:
          in.skip_section();
          mirrored = false;
          break;
        case kAbandonSection:
          if (in.open_sections() > 0) {
            in.abandon_section();
            out.end_section();
            mirrored = false;
          }
          break;
      }
    }
  } catch (const cwf::SnapshotError&) {
    return;
  }
  if (!mirrored) return;
  const std::span<const std::uint8_t> again = out.bytes();
  if (again.size() != bytes.size() || !std::equal(again.begin(), again.end(), bytes.begin())) {
    std::fprintf(stderr, "a snapshot of %zu bytes was read and written back as %zu other bytes\n",
                 bytes.size(), again.size());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  try {
    replay(cwf::verify_checkpoint(bytes, "the input"));
  } catch (const cwf::CheckpointFileError&) {
  }
  replay(bytes);
  return 0;
}
