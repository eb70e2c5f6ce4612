#include "runtime/snapshot/snapshot_reader.hpp"

#include <bit>
#include <stdexcept>
#include <utility>

#include "runtime/snapshot/checksum.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_format.hpp"

namespace cwf {

using snapshot_format::ValueTag;

SnapshotReader::SnapshotReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {
  scopes_.push_back(Scope{"", bytes.size(), {}});
}

void SnapshotReader::fail(std::string_view what, std::size_t at, std::string_view problem) const {
  std::string message = "snapshot: cannot read ";
  message += what;
  message += " at byte " + std::to_string(at);
  if (scopes_.size() > 1) message += " in section '" + section_path() + "'";
  message += ": ";
  message += problem;
  throw SnapshotError(message);
}

std::string SnapshotReader::section_path() const {
  std::string path;
  for (std::size_t i = 1; i < scopes_.size(); ++i) {
    if (i > 1) path += '/';
    path += scopes_[i].name;
  }
  return path;
}

void SnapshotReader::need(std::string_view what, std::size_t n) const {
  if (remaining() < n)
    fail(what, pos_,
         "needs " + std::to_string(n) + " bytes, " + std::to_string(remaining()) +
             (remaining() == 1 ? " is left" : " are left"));
}

std::uint8_t SnapshotReader::take_byte(std::string_view what) {
  need(what, 1);
  return bytes_[pos_++];
}

std::uint64_t SnapshotReader::take_fixed(std::string_view what, std::size_t width) {
  need(what, width);
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i)
    value |= std::uint64_t{bytes_[pos_ + i]} << (8 * i);
  pos_ += width;
  return value;
}

std::uint64_t SnapshotReader::read_u64(std::string_view what) {
  const std::size_t start = pos_;
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < snapshot_format::kMaxVarintBytes; ++i) {
    if (at_end()) {
      pos_ = start;
      fail(what, start, "the bytes end inside its varint");
    }
    const std::uint8_t byte = bytes_[pos_++];
    const std::uint64_t group = byte & 0x7f;
    // The tenth byte holds bit 63 alone.
    if (i == snapshot_format::kMaxVarintBytes - 1 && group > 1) {
      pos_ = start;
      fail(what, start, "its varint is larger than 64 bits");
    }
    value |= group << (7 * i);
    if ((byte & 0x80) == 0) {
      if (byte == 0 && i > 0) {
        pos_ = start;
        fail(what, start, "its varint is not in its shortest form");
      }
      return value;
    }
  }
  pos_ = start;
  fail(what, start, "its varint is longer than 10 bytes");
}

std::int64_t SnapshotReader::read_i64(std::string_view what) {
  const std::uint64_t zigzag = read_u64(what);
  return static_cast<std::int64_t>((zigzag >> 1) ^ (~(zigzag & 1) + 1));
}

double SnapshotReader::read_double(std::string_view what) {
  return std::bit_cast<double>(take_fixed(what, 8));
}

bool SnapshotReader::read_bool(std::string_view what) {
  const std::size_t at = pos_;
  const std::uint8_t byte = take_byte(what);
  if (byte > 1) {
    pos_ = at;
    fail(what, at, "a bool is 0 or 1, found " + std::to_string(byte));
  }
  return byte == 1;
}

// A length or count of items of at least unit_bytes each, checked against the bytes left so that
// nothing is allocated for items that cannot be there.
std::size_t SnapshotReader::read_length(std::string_view what, std::size_t unit_bytes,
                                        std::string_view units) {
  const std::size_t at = pos_;
  const std::uint64_t n = read_u64(what);
  const std::size_t left = remaining();
  if (n > left / unit_bytes) {
    pos_ = at;
    fail(what, at,
         "it says " + std::to_string(n) + " " + std::string(units) + ", " + std::to_string(left) +
             (left == 1 ? " byte is left" : " bytes are left"));
  }
  return static_cast<std::size_t>(n);
}

std::size_t SnapshotReader::read_count(std::string_view what) {
  return read_length(what, 1, "items");
}

std::string SnapshotReader::read_string(std::string_view what) {
  const std::size_t n = read_length(what, 1, "bytes");
  std::string text(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
  pos_ += n;
  return text;
}

std::vector<std::uint8_t> SnapshotReader::read_bytes(std::string_view what) {
  const std::size_t n = read_length(what, 1, "bytes");
  std::vector<std::uint8_t> out(bytes_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                bytes_.begin() + static_cast<std::ptrdiff_t>(pos_ + n));
  pos_ += n;
  return out;
}

Value SnapshotReader::read_value(std::string_view what) {
  return read_value_at_depth(what, 1);
}

Value SnapshotReader::read_value_at_depth(std::string_view what, int depth) {
  const std::size_t at = pos_;
  if (depth > snapshot_format::kMaxValueDepth)
    fail(what, at,
         "values nest deeper than " + std::to_string(snapshot_format::kMaxValueDepth) + " levels");
  const std::uint8_t tag = take_byte(what);
  switch (static_cast<ValueTag>(tag)) {
    case ValueTag::null:
      return Value();
    case ValueTag::boolean_false:
      return Value(false);
    case ValueTag::boolean_true:
      return Value(true);
    case ValueTag::integer:
      return Value(read_i64(what));
    case ValueTag::real:
      return Value(read_double(what));
    case ValueTag::string:
      return Value(read_string(what));
    case ValueTag::array: {
      const std::size_t n = read_length(what, 1, "items");  // an item takes a byte at least
      std::vector<Value> items;
      items.reserve(n);
      for (std::size_t i = 0; i < n; ++i)
        items.push_back(read_value_at_depth(what, depth + 1));
      return Value::array(std::move(items));
    }
    case ValueTag::record_new_schema:
      return read_record(what, depth, true, at);
    case ValueTag::record_known_schema:
      return read_record(what, depth, false, at);
  }
  pos_ = at;
  fail(what, at, "unknown value tag " + std::to_string(tag));
}

Value SnapshotReader::read_record(std::string_view what, int depth, bool new_schema,
                                  std::size_t tag_at) {
  std::vector<const Schema*>& schemas = scopes_.back().schemas;
  const Schema* schema = nullptr;
  if (new_schema) {
    // A field takes two bytes at least: its name's length and its value's tag.
    const std::size_t n = read_length(what, 2, "fields");
    std::vector<std::string> fields;
    fields.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      fields.push_back(read_string(what));
    try {
      schema = Schema::intern(fields);
    } catch (const std::invalid_argument& e) {
      fail(what, tag_at, e.what());
    }
    for (const Schema* defined : schemas) {
      if (defined == schema) fail(what, tag_at, "its field list is defined twice in one scope");
    }
    schemas.push_back(schema);
  } else {
    const std::size_t at = pos_;
    const std::uint64_t number = read_u64(what);
    if (number >= schemas.size()) {
      pos_ = at;
      fail(what, at,
           "it refers to field list " + std::to_string(number) + ", " +
               std::to_string(schemas.size()) + " are defined in this scope");
    }
    schema = schemas[static_cast<std::size_t>(number)];
  }
  if (schema->size() > remaining()) fail(what, pos_, "the record's fields are not all there");
  std::vector<Value> slots;
  slots.reserve(schema->size());
  for (std::size_t i = 0; i < schema->size(); ++i)
    slots.push_back(read_value_at_depth(what, depth + 1));
  return Value::record(schema, std::move(slots));
}

WaveTag SnapshotReader::read_wave_tag(std::string_view what) {
  const Timestamp root_time = read_i64(what);
  const std::uint64_t root_sequence = read_u64(what);
  const std::size_t flags_at = pos_;
  const std::uint8_t flags = take_byte(what);
  if ((flags & ~snapshot_format::kWavePunctuationFlag) != 0) {
    pos_ = flags_at;
    fail(what, flags_at, "unknown wave tag flags " + std::to_string(flags));
  }
  const std::size_t depth_at = pos_;
  const std::uint64_t depth = read_u64(what);
  if (depth > static_cast<std::uint64_t>(WaveTag::kMaxDepth)) {
    pos_ = depth_at;
    fail(what, depth_at,
         "its depth " + std::to_string(depth) + " is beyond " + std::to_string(WaveTag::kMaxDepth));
  }
  WaveTag wave(root_time, root_sequence);
  for (std::uint64_t level = 0; level < depth; ++level) {
    const std::size_t at = pos_;
    const std::uint64_t index_and_last = read_u64(what);
    if ((index_and_last >> 1) > 0xffffffffu) {
      pos_ = at;
      fail(what, at, "a sub-wave index is larger than 32 bits");
    }
    wave = wave.child(static_cast<std::uint32_t>(index_and_last >> 1), (index_and_last & 1) != 0);
  }
  return (flags & snapshot_format::kWavePunctuationFlag) ? wave.as_punctuation() : wave;
}

Event SnapshotReader::read_event(std::string_view what) {
  Event event;
  event.token = read_value(what);
  event.time = read_timestamp(what);
  event.wave = read_wave_tag(what);
  return event;
}

SnapshotReader::SectionHeader SnapshotReader::read_section_header() {
  SectionHeader header;
  header.starts_at = pos_;
  header.name = read_string("a section name");
  const std::size_t length_at = pos_;
  const std::uint64_t length = take_fixed("the length of section '" + header.name + "'",
                                          snapshot_format::kSectionLengthBytes);
  header.checksum = static_cast<std::uint32_t>(take_fixed(
      "the checksum of section '" + header.name + "'", snapshot_format::kSectionChecksumBytes));
  const std::size_t left = remaining();
  if (length > left) {
    pos_ = header.starts_at;
    fail("section '" + header.name + "'", length_at,
         "it says " + std::to_string(length) + " bytes, " + std::to_string(left) +
             (left == 1 ? " is left" : " are left"));
  }
  header.body_at = pos_;
  header.length = static_cast<std::size_t>(length);
  return header;
}

void SnapshotReader::enter(SectionHeader header) {
  const std::span<const std::uint8_t> body = bytes_.subspan(header.body_at, header.length);
  if (crc32_of(body) != header.checksum) {
    pos_ = header.starts_at;
    fail("section '" + header.name + "'", header.body_at, "its body does not match its checksum");
  }
  scopes_.push_back(Scope{std::move(header.name), header.body_at + header.length, {}});
}

void SnapshotReader::begin_section(std::string_view name) {
  SectionHeader header = read_section_header();
  if (header.name != name) {
    pos_ = header.starts_at;
    fail("section '" + std::string(name) + "'", header.starts_at,
         "found section '" + header.name + "' instead");
  }
  enter(std::move(header));
}

std::string SnapshotReader::begin_any_section() {
  SectionHeader header = read_section_header();
  std::string name = header.name;
  enter(std::move(header));
  return name;
}

std::string SnapshotReader::skip_section() {
  SectionHeader header = read_section_header();
  pos_ = header.body_at + header.length;
  return header.name;
}

void SnapshotReader::end_section() {
  if (scopes_.size() < 2) throw std::logic_error("SnapshotReader::end_section without a section");
  if (!at_end())
    fail("the end of section '" + scopes_.back().name + "'", pos_,
         std::to_string(remaining()) + " bytes of it were not read");
  scopes_.pop_back();
}

void SnapshotReader::abandon_section() {
  if (scopes_.size() < 2)
    throw std::logic_error("SnapshotReader::abandon_section without a section");
  pos_ = scopes_.back().end;
  scopes_.pop_back();
}

void SnapshotReader::expect_end() const {
  if (!at_end())
    fail("the end of the snapshot", pos_, std::to_string(remaining()) + " bytes were not read");
}

}  // namespace cwf
