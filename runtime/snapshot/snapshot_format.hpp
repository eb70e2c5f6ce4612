// The binary encoding of a snapshot, shared by SnapshotWriter and SnapshotReader. It is part of
// the checkpoint file format: changing anything here changes kCheckpointFormatVersion
// (checkpoint_file.hpp), and tests/runtime/snapshot_encoding_test.cpp pins the exact bytes.
//
// Portable and compact, independent of the host's endianness and of the in-memory layouts:
// - unsigned integers: LEB128 varints (7 bits a byte, least significant group first, high bit set
//   on every byte but the last). Small counts and lengths, which are most of a snapshot, take one
//   byte. Only the shortest form is accepted (no trailing 0x80 0x00 padding, at most 10 bytes, no
//   bits beyond 64), so every value has exactly one encoding.
// - signed integers (and Timestamps): zigzag (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...) then varint,
//   so small negative numbers stay short.
// - doubles: the 8 bytes of the IEEE 754 bit pattern, little-endian (NaN payloads and -0.0 kept).
// - bools: one byte, 0 or 1; anything else is damage.
// - strings and byte blobs: varint length, then the bytes.
// - Value: one tag byte (ValueTag), then
//     null, false, true: nothing;  integer: signed;  real: double;  string: string;
//     array: varint count, the items;
//     record_new_schema: varint field count, the field names (strings), the slots in that order;
//       the field list becomes the scope's next schema number (0, 1, 2, ...);
//     record_known_schema: varint schema number (defined earlier in the same scope), the slots.
//   A scope is the innermost open section (or the whole stream outside any section), so a
//   section can be read or skipped without the ones around it. A scope defines each field list
//   once: a second definition is damage. Values nest at most kMaxValueDepth deep.
// - WaveTag: signed root time, varint root sequence, one flags byte (bit 0: punctuation, other
//   bits zero), varint depth (at most WaveTag::kMaxDepth), then per level varint
//   (index << 1 | last). Only the logical tag is written: the reader rebuilds it with
//   WaveTag::child, which chooses the inline or the spilled form as a fresh tag would.
// - Event: token (Value), signed time, wave (WaveTag).
// - Section: name (string), body length (8 bytes, little-endian), CRC-32 of the body (4 bytes,
//   little-endian), body. The length and checksum are fixed-width so that the writer can fill
//   them in when the section ends; the checksum tells a reader which section is damaged.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cwf::snapshot_format {

enum class ValueTag : std::uint8_t {
  null = 0,
  boolean_false = 1,
  boolean_true = 2,
  integer = 3,
  real = 4,
  string = 5,
  array = 6,
  record_new_schema = 7,
  record_known_schema = 8,
};

inline constexpr std::uint8_t kWavePunctuationFlag = 0x01;

// Deeper values cannot be written (SnapshotWriter throws) and are refused when read: the reader
// recurses once per level and must not be driven off its stack by a hostile input. The JSON
// parser has the same limit, so every value a source can produce fits.
inline constexpr int kMaxValueDepth = 256;

inline constexpr std::size_t kMaxVarintBytes = 10;
inline constexpr std::size_t kSectionLengthBytes = 8;
inline constexpr std::size_t kSectionChecksumBytes = 4;

}  // namespace cwf::snapshot_format
