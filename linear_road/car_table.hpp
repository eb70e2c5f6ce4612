// Per-car state by carid. The benchmark's car ids are dense (0..n), so a vector indexed by carid
// is the fastest lookup; an id beyond kDenseCarids (only a damaged input has one) goes to a map
// so that it cannot make the vector huge.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace cwf::lr {

template <class State>
class CarTable {
 public:
  static constexpr std::int32_t kDenseCarids = 1 << 24;

  // The car's state, created (default) on first use.
  State& operator[](std::int32_t carid) {
    if (carid < 0 || carid >= kDenseCarids) return sparse_[carid];
    auto index = static_cast<std::size_t>(carid);
    if (index >= dense_.size()) dense_.resize(std::max(index + 1, dense_.size() * 2));
    return dense_[index];
  }
  // The car's state, or null when it was never used (asking does not create it).
  const State* find(std::int32_t carid) const {
    if (carid < 0 || carid >= kDenseCarids) {
      auto found = sparse_.find(carid);
      return found == sparse_.end() ? nullptr : &found->second;
    }
    auto index = static_cast<std::size_t>(carid);
    return index < dense_.size() ? &dense_[index] : nullptr;
  }

 private:
  std::vector<State> dense_;
  std::unordered_map<std::int32_t, State> sparse_;
};

}  // namespace cwf::lr
