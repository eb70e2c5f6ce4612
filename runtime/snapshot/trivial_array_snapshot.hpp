// Arrays of plain structs (trivially copyable: integers, no pointers) in a snapshot as their
// bytes, one copy instead of a write per field: the way an actor with large tables of per-car or
// per-segment records saves them. The element size is written first and checked on reading, so
// a checkpoint from a build whose struct has another layout is refused, not misread. Bytes are
// the machine's own order: a checkpoint is read back by the same build on the same machine kind.
//
//   write_trivial_array(out, std::span<const Slot>(slots_));
//   slots_ = read_trivial_array<Slot>(in, "the segment slots");
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

template <class T>
requires std::is_trivially_copyable_v<T>
void write_trivial_array(SnapshotWriter& out, std::span<const T> items) {
  // Padding bytes are indeterminate: equal state would write unequal bytes (and uninitialised
  // memory would reach the file). Widen a field instead of leaving a gap.
  static_assert(std::has_unique_object_representations_v<T>,
                "a record written as bytes must have no padding");
  out.write_u64(sizeof(T));
  out.write_bytes(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(items.data()),
                                                items.size_bytes()));
}

namespace detail {
// The array's bytes after checking the record size they were written with.
template <class T>
std::vector<std::uint8_t> read_trivial_bytes(SnapshotReader& in, std::string_view what) {
  std::uint64_t size = in.read_u64(what);
  if (size != sizeof(T))
    in.reject(what, "its records are " + std::to_string(size) + " bytes, this build's are " +
                        std::to_string(sizeof(T)));
  std::vector<std::uint8_t> bytes = in.read_bytes(what);
  if (bytes.size() % sizeof(T) != 0)
    in.reject(what, std::to_string(bytes.size()) + " bytes are not a whole number of records");
  return bytes;
}
}  // namespace detail

template <class T>
requires std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T> std::vector<T>
read_trivial_array(SnapshotReader& in, std::string_view what) {
  std::vector<std::uint8_t> bytes = detail::read_trivial_bytes<T>(in, what);
  std::vector<T> items(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(items.data(), bytes.data(), bytes.size());
  return items;
}

// Reads what write_trivial_array wrote into `into`, whose size must be the count written.
template <class T>
requires std::is_trivially_copyable_v<T>
void read_trivial_array_into(SnapshotReader& in, std::span<T> into, std::string_view what) {
  std::vector<std::uint8_t> bytes = detail::read_trivial_bytes<T>(in, what);
  if (bytes.size() != into.size_bytes())
    in.reject(what, "it holds " + std::to_string(bytes.size() / sizeof(T)) + " records, " +
                        std::to_string(into.size()) + " were expected");
  if (!bytes.empty()) std::memcpy(into.data(), bytes.data(), bytes.size());
}

}  // namespace cwf
