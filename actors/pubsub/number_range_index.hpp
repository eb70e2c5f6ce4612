// Stabbing queries over closed number intervals [lo, hi] (NumberDomain order, NaN on top): which
// intervals contain x. Intervals are sorted by lower bound over a tree of maximal upper bounds,
// so a query visits only the O(log n) paths that lead to answers. Changes mark the structure
// stale and the next query rebuilds it: subscriptions change far less often than publications
// arrive.
#pragma once

#include <cstdint>
#include <vector>

namespace cwf::pubsub {

class NumberRangeIndex {
 public:
  void add(double lo, double hi, std::uint32_t item);
  void remove(std::uint32_t item);
  bool empty() const { return entries_.empty(); }
  // Appends the items whose interval contains x.
  void stab(double x, std::vector<std::uint32_t>& out) const;

 private:
  struct Entry {
    double lo, hi;
    std::uint32_t item;
  };
  void rebuild() const;
  void visit(std::size_t node, std::size_t begin, std::size_t end, std::size_t limit, double x,
             std::vector<std::uint32_t>& out) const;

  std::vector<Entry> entries_;          // unsorted while stale
  mutable std::vector<Entry> sorted_;   // by lo
  mutable std::vector<double> max_hi_;  // segment tree over sorted_
  mutable bool stale_ = false;
};

}  // namespace cwf::pubsub
