// Reads what a SnapshotWriter wrote, in the same order, from bytes it does not trust. Every read
// checks that its bytes are there (within the innermost open section) and well formed; when they
// are not it throws SnapshotError naming what was being read, the byte offset and the section
// path, e.g.
//   snapshot: cannot read the token's string at byte 1234 in section 'actor:tolls/window:in':
//   it says 5000 bytes, 12 are left
// A length or count is checked against the bytes left before anything is allocated for it.
//
//   SnapshotReader in(payload);
//   in.begin_section("actor:tolls");   // checks the section's length and checksum
//   auto n = in.read_u64("event count");
//   for (...) events.push_back(in.read_event());
//   in.end_section();                  // everything in it was read
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/actor/event.hpp"
#include "runtime/time/wave_tag.hpp"
#include "runtime/values/value.hpp"

namespace cwf {

class SnapshotReader {
 public:
  // The bytes must outlive the reader.
  explicit SnapshotReader(std::span<const std::uint8_t> bytes);
  // A temporary vector would be gone before the first read.
  explicit SnapshotReader(std::vector<std::uint8_t>&&) = delete;

  // `what` names the item in an error message.
  std::uint64_t read_u64(std::string_view what = "an unsigned integer");
  std::int64_t read_i64(std::string_view what = "a signed integer");
  double read_double(std::string_view what = "a double");
  bool read_bool(std::string_view what = "a bool");
  std::string read_string(std::string_view what = "a string");
  std::vector<std::uint8_t> read_bytes(std::string_view what = "a byte blob");

  Value read_value(std::string_view what = "a value");
  Timestamp read_timestamp(std::string_view what = "a timestamp") { return read_i64(what); }
  WaveTag read_wave_tag(std::string_view what = "a wave tag");
  Event read_event(std::string_view what = "an event");
  // A count of items that take at least one byte each: checked against the bytes left, so that
  // a damaged count cannot make the caller reserve more than the input holds.
  std::size_t read_count(std::string_view what = "a count");
  // The bytes were read but what they say does not fit (an index out of range, an order broken):
  // throws SnapshotError naming `what`, the offset and the section, as a failed read does.
  [[noreturn]] void reject(std::string_view what, std::string_view problem) const {
    fail(what, pos_, problem);
  }

  // Enters the next section, which must be called `name`, after checking that its body is all
  // there and matches its checksum. A section that is all there but does not match its checksum
  // (or has another name) leaves the reader before it: the caller may skip_section() and go on.
  void begin_section(std::string_view name);
  // Enters the next section whatever its name (checked the same way) and returns the name.
  std::string begin_any_section();
  // Passes over the next section without reading or checking its body; returns its name.
  std::string skip_section();
  // Leaves the innermost section; throws when part of its body was not read (the reader and the
  // writer disagree about what it holds).
  void end_section();
  // Leaves the innermost section wherever the reading of it stopped, e.g. after a SnapshotError
  // inside it: the state of one actor is given up, the sections after it can still be read.
  void abandon_section();
  int open_sections() const noexcept { return static_cast<int>(scopes_.size()) - 1; }

  // Whether the innermost section (or the stream) has been read to its end.
  bool at_end() const noexcept { return pos_ == scopes_.back().end; }
  // Throws unless at_end().
  void expect_end() const;
  std::size_t offset() const noexcept { return pos_; }
  std::size_t remaining() const noexcept { return scopes_.back().end - pos_; }

 private:
  struct Scope {
    std::string name;
    std::size_t end = 0;                 // one past the last byte of the body
    std::vector<const Schema*> schemas;  // by number, as defined in this scope
  };
  struct SectionHeader {
    std::size_t starts_at = 0;
    std::string name;
    std::size_t body_at = 0;
    std::size_t length = 0;
    std::uint32_t checksum = 0;
  };

  [[noreturn]] void fail(std::string_view what, std::size_t at, std::string_view problem) const;
  void need(std::string_view what, std::size_t n) const;
  std::uint8_t take_byte(std::string_view what);
  std::uint64_t take_fixed(std::string_view what, std::size_t width);
  std::size_t read_length(std::string_view what, std::size_t unit_bytes, std::string_view units);
  Value read_value_at_depth(std::string_view what, int depth);
  Value read_record(std::string_view what, int depth, bool new_schema, std::size_t tag_at);
  SectionHeader read_section_header();
  void enter(SectionHeader header);
  std::string section_path() const;

  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  std::vector<Scope> scopes_;  // [0] is the whole stream
};

}  // namespace cwf
