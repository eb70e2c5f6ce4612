// The index of a port's live groups by key: open addressing with linear probing, each slot a
// key's hash and its group's slot; the keys themselves stay with the groups, which the caller
// compares. A lookup reads one run of slots in one array and then the group it finds, which the
// port reads next anyway; a node-based map would add a bucket and a node, each a cache miss
// among hundreds of thousands of groups, and an allocation per group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace cwf {

class GroupIndex {
 public:
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

  // The group whose key has `hash` and for which `same(group)` holds, or npos.
  template <typename Same>
  std::size_t find(std::size_t hash, const Same& same) const {
    if (size_ == 0) return npos;
    for (std::size_t i = home(hash);; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.group == npos) return npos;
      if (slot.hash == hash && same(slot.group)) return slot.group;
    }
  }
  // Adds `group` under `hash` (its key is not in the index).
  void insert(std::size_t hash, std::size_t group);
  // Removes `group`, which is in the index under `hash`.
  void erase(std::size_t hash, std::size_t group);
  void clear();
  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::size_t hash = 0;
    std::size_t group = npos;  // npos: empty
  };
  // Fibonacci hashing: the top bits of the hash times 2^64/phi, so that keys whose hashes differ
  // only in high bits (small integers mixed) still spread over the table.
  std::size_t home(std::size_t hash) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(hash) * 0x9e3779b97f4a7c15ULL) >>
                                    shift_);
  }
  // Puts `slot` in the first empty slot from its home on (there is one: at most half full).
  void place(Slot slot);
  void grow();

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace cwf
