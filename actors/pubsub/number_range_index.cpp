#include "actors/pubsub/number_range_index.hpp"

#include <algorithm>

#include "actors/pubsub/interval_set.hpp"

namespace cwf::pubsub {

void NumberRangeIndex::add(double lo, double hi, std::uint32_t item) {
  entries_.push_back({lo, hi, item});
  stale_ = true;
}

void NumberRangeIndex::remove(std::uint32_t item) {
  auto at = std::find_if(entries_.begin(), entries_.end(),
                         [&](const Entry& e) { return e.item == item; });
  if (at == entries_.end()) return;
  *at = entries_.back();
  entries_.pop_back();
  stale_ = true;
}

void NumberRangeIndex::rebuild() const {
  sorted_ = entries_;
  std::sort(sorted_.begin(), sorted_.end(),
            [](const Entry& a, const Entry& b) { return NumberDomain::less(a.lo, b.lo); });
  std::size_t n = sorted_.size();
  max_hi_.assign(4 * std::max<std::size_t>(n, 1), NumberDomain::bottom());
  // Iterative bottom-up fill of the recursive layout used by visit().
  struct Frame {
    std::size_t node, begin, end;
    bool children_done;
  };
  std::vector<Frame> stack;
  if (n) stack.push_back({1, 0, n, false});
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    if (f.end - f.begin == 1) {
      max_hi_[f.node] = sorted_[f.begin].hi;
      continue;
    }
    std::size_t mid = (f.begin + f.end) / 2;
    if (!f.children_done) {
      stack.push_back({f.node, f.begin, f.end, true});
      stack.push_back({2 * f.node, f.begin, mid, false});
      stack.push_back({2 * f.node + 1, mid, f.end, false});
    } else {
      double a = max_hi_[2 * f.node], b = max_hi_[2 * f.node + 1];
      max_hi_[f.node] = NumberDomain::less(a, b) ? b : a;
    }
  }
  stale_ = false;
}

void NumberRangeIndex::visit(std::size_t node, std::size_t begin, std::size_t end,
                             std::size_t limit, double x, std::vector<std::uint32_t>& out) const {
  if (begin >= limit || NumberDomain::less(max_hi_[node], x)) return;
  if (end - begin == 1) {
    out.push_back(sorted_[begin].item);
    return;
  }
  std::size_t mid = (begin + end) / 2;
  visit(2 * node, begin, mid, limit, x, out);
  visit(2 * node + 1, mid, end, limit, x, out);
}

void NumberRangeIndex::stab(double x, std::vector<std::uint32_t>& out) const {
  if (stale_) rebuild();
  if (sorted_.empty()) return;
  // Entries [0, limit) start at or below x; of those, the tree finds the ones reaching x.
  std::size_t limit = static_cast<std::size_t>(
      std::upper_bound(sorted_.begin(), sorted_.end(), x,
                       [](double v, const Entry& e) { return NumberDomain::less(v, e.lo); }) -
      sorted_.begin());
  visit(1, 0, sorted_.size(), limit, x, out);
}

}  // namespace cwf::pubsub
