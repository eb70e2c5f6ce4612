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

#include "runtime/snapshot/sorted_keys.hpp"
#include "runtime/snapshot/trivial_array_snapshot.hpp"

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

  // A checkpoint holds the pages in use, whole, and the sparse cars.
  void save(SnapshotWriter& out) const {
    out.write_u64(pages_.size());
    for (const auto& page : pages_) {
      out.write_bool(page != nullptr);
      if (page) write_trivial_array(out, std::span<const State>(page.get(), kPageCars));
    }
    const std::vector<std::int32_t> carids = sorted_keys(sparse_);
    out.write_u64(carids.size());
    for (std::int32_t carid : carids) {
      out.write_i64(carid);
      write_trivial_array(out, std::span<const State>(&sparse_.at(carid), 1));
    }
  }
  void restore(SnapshotReader& in) {
    pages_.clear();
    std::size_t pages = in.read_count("the number of car pages");
    if (pages > kDenseCarids / kPageCars)
      in.reject("the number of car pages", "it is more than dense car ids fill");
    pages_.resize(pages);
    for (auto& page : pages_) {
      if (!in.read_bool("whether a car page is in use")) continue;
      page = std::make_unique<State[]>(kPageCars);
      read_trivial_array_into(in, std::span<State>(page.get(), kPageCars), "a car page");
    }
    sparse_.clear();
    for (std::size_t n = in.read_count("the number of sparse cars"); n > 0; --n) {
      std::int64_t carid = in.read_i64("a sparse car's id");
      if ((carid >= 0 && carid < kDenseCarids) || carid != static_cast<std::int32_t>(carid))
        in.reject("a sparse car's id", "it is not one kept apart from the dense ones");
      read_trivial_array_into(in, std::span<State>(&sparse_[static_cast<std::int32_t>(carid)], 1),
                              "a sparse car's state");
    }
  }

 private:
  std::vector<std::unique_ptr<State[]>> pages_;
  std::unordered_map<std::int32_t, State> sparse_;
};

}  // namespace cwf::lr
