// Per-car state by carid. The benchmark's car ids are dense (0..n), so a table indexed by carid
// is the fastest lookup; an id beyond kDenseCarids (only a damaged input has one) goes to a map
// so that it cannot make the table huge.
//
// The table is paged: pages of kPageCars states, each allocated when a car on it first shows
// up, and never moved. A vector that doubles would copy every car's state at once; with
// replicated expressways (car ids in the millions) that was a 150 ms pause in the middle of a
// paced run, 9 simulated seconds at time compression 60.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace cwf::lr {

template <class State>
class CarTable {
 public:
  static constexpr std::int32_t kDenseCarids = 1 << 24;
  static constexpr int kPageBits = 14;
  static constexpr std::size_t kPageCars = std::size_t{1} << kPageBits;

  // The car's state, created (default) on first use.
  State& operator[](std::int32_t carid) {
    if (carid < 0 || carid >= kDenseCarids) return sparse_[carid];
    auto index = static_cast<std::size_t>(carid);
    std::size_t page = index >> kPageBits;
    if (page >= pages_.size()) pages_.resize(page + 1);
    if (!pages_[page]) pages_[page] = std::make_unique<State[]>(kPageCars);
    return pages_[page][index & (kPageCars - 1)];
  }
  // The car's state, or null when no car on its page was used (asking does not create it).
  const State* find(std::int32_t carid) const {
    if (carid < 0 || carid >= kDenseCarids) {
      auto found = sparse_.find(carid);
      return found == sparse_.end() ? nullptr : &found->second;
    }
    auto index = static_cast<std::size_t>(carid);
    std::size_t page = index >> kPageBits;
    if (page >= pages_.size() || !pages_[page]) return nullptr;
    return &pages_[page][index & (kPageCars - 1)];
  }

 private:
  std::vector<std::unique_ptr<State[]>> pages_;
  std::unordered_map<std::int32_t, State> sparse_;
};

}  // namespace cwf::lr
