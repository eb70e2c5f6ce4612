#include "runtime/snapshot/snapshot_writer.hpp"

#include <bit>
#include <stdexcept>
#include <string>

#include "runtime/snapshot/checksum.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_format.hpp"

namespace cwf {

using snapshot_format::ValueTag;

SnapshotWriter::SnapshotWriter() : scopes_(1) {}

void SnapshotWriter::write_u64(std::uint64_t value) {
  while (value >= 0x80) {
    put_byte(static_cast<std::uint8_t>(value | 0x80));
    value >>= 7;
  }
  put_byte(static_cast<std::uint8_t>(value));
}

void SnapshotWriter::write_i64(std::int64_t value) {
  // Zigzag: the sign moves to bit 0, so -1 is 1 and 1 is 2.
  const auto bits = static_cast<std::uint64_t>(value);
  write_u64((bits << 1) ^ (value < 0 ? ~std::uint64_t{0} : 0));
}

void SnapshotWriter::write_double(double value) {
  put_fixed(std::bit_cast<std::uint64_t>(value), 8, out_.size());
}

void SnapshotWriter::write_bool(bool value) {
  put_byte(value ? 1 : 0);
}

void SnapshotWriter::write_string(std::string_view text) {
  write_u64(text.size());
  out_.insert(out_.end(), text.begin(), text.end());
}

void SnapshotWriter::write_bytes(std::span<const std::uint8_t> bytes) {
  write_u64(bytes.size());
  out_.insert(out_.end(), bytes.begin(), bytes.end());
}

void SnapshotWriter::write_value(const Value& value) {
  write_value_at_depth(value, 1);
}

void SnapshotWriter::write_value_at_depth(const Value& value, int depth) {
  if (depth > snapshot_format::kMaxValueDepth)
    throw SnapshotError("snapshot: cannot write a value nested deeper than " +
                        std::to_string(snapshot_format::kMaxValueDepth) + " levels");
  switch (value.kind()) {
    case Kind::null:
      put_byte(static_cast<std::uint8_t>(ValueTag::null));
      return;
    case Kind::boolean:
      put_byte(static_cast<std::uint8_t>(value.as_bool() ? ValueTag::boolean_true
                                                         : ValueTag::boolean_false));
      return;
    case Kind::integer:
      put_byte(static_cast<std::uint8_t>(ValueTag::integer));
      write_i64(value.as_int());
      return;
    case Kind::real:
      put_byte(static_cast<std::uint8_t>(ValueTag::real));
      write_double(value.as_double());
      return;
    case Kind::string:
      put_byte(static_cast<std::uint8_t>(ValueTag::string));
      write_string(value.as_string());
      return;
    case Kind::array:
      put_byte(static_cast<std::uint8_t>(ValueTag::array));
      write_u64(value.as_array().size());
      for (const Value& item : value.as_array())
        write_value_at_depth(item, depth + 1);
      return;
    case Kind::record: {
      const Schema* schema = value.schema();
      auto& schemas = scopes_.back().schemas;
      if (auto known = schemas.find(schema); known != schemas.end()) {
        put_byte(static_cast<std::uint8_t>(ValueTag::record_known_schema));
        write_u64(known->second);
      } else {
        put_byte(static_cast<std::uint8_t>(ValueTag::record_new_schema));
        write_u64(schema->size());
        for (const std::string& field : schema->fields())
          write_string(field);
        const std::uint64_t number = schemas.size();
        schemas.emplace(schema, number);
      }
      for (const Value& slot : value.slots())
        write_value_at_depth(slot, depth + 1);
      return;
    }
  }
}

void SnapshotWriter::write_wave_tag(const WaveTag& wave) {
  write_i64(wave.root_time());
  write_u64(wave.root_sequence());
  put_byte(wave.is_punctuation() ? snapshot_format::kWavePunctuationFlag : 0);
  write_u64(static_cast<std::uint64_t>(wave.depth()));
  for (int level = 1; level <= wave.depth(); ++level)
    write_u64(std::uint64_t{wave.index(level)} << 1 | (wave.is_last(level) ? 1 : 0));
}

void SnapshotWriter::write_event(const Event& event) {
  write_value(event.token);
  write_timestamp(event.time);
  write_wave_tag(event.wave);
}

void SnapshotWriter::begin_section(std::string_view name) {
  write_string(name);
  Scope scope;
  scope.header_at = out_.size();
  out_.resize(out_.size() + snapshot_format::kSectionLengthBytes +
              snapshot_format::kSectionChecksumBytes);
  scopes_.push_back(std::move(scope));
}

void SnapshotWriter::end_section() {
  if (scopes_.size() < 2) throw std::logic_error("SnapshotWriter::end_section without a section");
  const std::size_t header_at = scopes_.back().header_at;
  const std::size_t body_at =
      header_at + snapshot_format::kSectionLengthBytes + snapshot_format::kSectionChecksumBytes;
  const std::span<const std::uint8_t> body(out_.data() + body_at, out_.size() - body_at);
  put_fixed(body.size(), snapshot_format::kSectionLengthBytes, header_at);
  put_fixed(crc32_of(body), snapshot_format::kSectionChecksumBytes,
            header_at + snapshot_format::kSectionLengthBytes);
  scopes_.pop_back();
}

std::span<const std::uint8_t> SnapshotWriter::bytes() const {
  require_closed("bytes");
  return out_;
}

std::vector<std::uint8_t> SnapshotWriter::take_bytes() {
  require_closed("take_bytes");
  std::vector<std::uint8_t> out = std::move(out_);
  out_.clear();
  scopes_.assign(1, Scope{});
  return out;
}

void SnapshotWriter::put_fixed(std::uint64_t value, std::size_t width, std::size_t at) {
  if (out_.size() < at + width) out_.resize(at + width);
  for (std::size_t i = 0; i < width; ++i)
    out_[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

void SnapshotWriter::require_closed(const char* what) const {
  if (scopes_.size() > 1)
    throw std::logic_error(std::string("SnapshotWriter::") + what + " while " +
                           std::to_string(scopes_.size() - 1) + " section(s) are open");
}

}  // namespace cwf
