// Writes the state of a running workflow as bytes (the encoding is described in
// snapshot_format.hpp): primitives, Values, Timestamps, WaveTags and Events, grouped into named
// sections (one per actor, say "actor:tolls", and inside it one per window) so that a reader can
// tell which part is damaged and skip the parts it does not know.
//
//   SnapshotWriter out;
//   out.begin_section("actor:tolls");
//   out.write_u64(events.size());
//   for (const Event& e : events) out.write_event(e);
//   out.end_section();
//   write_checkpoint_file(path, out.bytes());
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/actor/event.hpp"
#include "runtime/time/wave_tag.hpp"
#include "runtime/values/value.hpp"

namespace cwf {

class SnapshotWriter {
 public:
  SnapshotWriter();

  void write_u64(std::uint64_t value);
  void write_i64(std::int64_t value);
  void write_double(double value);
  void write_bool(bool value);
  void write_string(std::string_view text);
  void write_bytes(std::span<const std::uint8_t> bytes);

  // Throws SnapshotError for a value nested deeper than snapshot_format::kMaxValueDepth (the
  // reader would refuse it).
  void write_value(const Value& value);
  void write_timestamp(Timestamp time) { write_i64(time); }
  void write_wave_tag(const WaveTag& wave);
  void write_event(const Event& event);

  // Sections nest; each end_section closes the innermost open one.
  void begin_section(std::string_view name);
  void end_section();
  int open_sections() const noexcept { return static_cast<int>(scopes_.size()) - 1; }

  // The snapshot so far. Throws std::logic_error while a section is open (its length and
  // checksum are not written yet).
  std::span<const std::uint8_t> bytes() const;
  std::vector<std::uint8_t> take_bytes();

 private:
  // The schemas defined so far in one scope (the stream, or a section), by their number.
  struct Scope {
    std::size_t header_at = 0;  // where the section's length and checksum go
    std::unordered_map<const Schema*, std::uint64_t> schemas;
  };

  void write_value_at_depth(const Value& value, int depth);
  void put_byte(std::uint8_t byte) { out_.push_back(byte); }
  void put_fixed(std::uint64_t value, std::size_t width, std::size_t at);
  void require_closed(const char* what) const;

  std::vector<std::uint8_t> out_;
  std::vector<Scope> scopes_;  // [0] is the stream itself
};

}  // namespace cwf
