// A monomorphic inline cache from a record Schema to the slot of one field name.
//
// A compiled path step such as `/seg` sees records of one schema almost always, so it remembers
// the last schema it saw together with the slot of its field and answers the next lookup with one
// load and one compare. When a record of another schema arrives, the cache does the name lookup
// and remembers the new schema instead. Schemas are interned and immortal, so their addresses are
// stable keys.
//
// The cache is safe to use from several threads at once: the schema address and the slot are
// packed into a single 64-bit atomic word, so a reader sees either the old entry or the new one,
// never a mix. Addresses that do not fit the packing (above 2^48) and slots beyond 65534 simply
// bypass the cache.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "runtime/values/value.hpp"

namespace cwf {

class SlotCache {
 public:
  SlotCache() = default;
  SlotCache(const SlotCache& other) noexcept
      : entry_(other.entry_.load(std::memory_order_relaxed)) {}
  SlotCache& operator=(const SlotCache& other) noexcept {
    entry_.store(other.entry_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }

  // Slot of `name` in `schema`, or -1 when the schema has no such field.
  int slot(const Schema* schema, std::string_view name) const noexcept {
    auto key = reinterpret_cast<std::uintptr_t>(schema);
    std::uint64_t entry = entry_.load(std::memory_order_relaxed);
    if ((entry >> kSlotBits) == key) return static_cast<int>(entry & kSlotMask) - 1;
    return miss(schema, name);
  }

 private:
  static constexpr unsigned kSlotBits = 16;
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;

  // Out of line: the hit is what callers inline.
  [[gnu::noinline]] int miss(const Schema* schema, std::string_view name) const noexcept {
    int found = schema->slot(name);
    auto key = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(schema));
    auto stored = static_cast<std::uint64_t>(found + 1);  // 0 encodes "no such field"
    if ((key >> (64 - kSlotBits)) == 0 && stored < kSlotMask)
      entry_.store((key << kSlotBits) | stored, std::memory_order_relaxed);
    return found;
  }

  // (schema address << 16) | (slot + 1); 0 matches no schema since schemas are never null.
  mutable std::atomic<std::uint64_t> entry_{0};
};

}  // namespace cwf
