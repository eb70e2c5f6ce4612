#include "runtime/execution/group_index.hpp"

#include <bit>
#include <utility>

namespace cwf {

void GroupIndex::insert(std::size_t hash, std::size_t group) {
  // At most half full: probe runs stay short.
  if (2 * (size_ + 1) > slots_.size()) grow();
  place({hash, group});
  ++size_;
}

void GroupIndex::place(Slot slot) {
  std::size_t i = home(slot.hash);
  while (slots_[i].group != npos)
    i = (i + 1) & mask_;
  slots_[i] = slot;
}

void GroupIndex::erase(std::size_t hash, std::size_t group) {
  std::size_t i = home(hash);
  while (slots_[i].group != group)
    i = (i + 1) & mask_;
  // Backward shift: every later slot of the run whose home is not between the hole and itself
  // moves into the hole, so that no probe run is cut (no tombstones).
  for (std::size_t j = (i + 1) & mask_; slots_[j].group != npos; j = (j + 1) & mask_) {
    const std::size_t k = home(slots_[j].hash);
    const bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
    if (stays) continue;
    slots_[i] = slots_[j];
    i = j;
  }
  slots_[i] = Slot{};
  --size_;
}

void GroupIndex::clear() {
  slots_.clear();
  mask_ = 0;
  shift_ = 64;
  size_ = 0;
}

void GroupIndex::grow() {
  std::vector<Slot> old = std::move(slots_);
  const std::size_t capacity = old.empty() ? 16 : 2 * old.size();
  slots_.assign(capacity, Slot{});
  mask_ = capacity - 1;
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));  // home() takes log2 bits
  for (const Slot& slot : old)
    if (slot.group != npos) place(slot);
}

}  // namespace cwf
