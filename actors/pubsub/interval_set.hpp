// A set of values of one ordered domain (numbers or strings) as a canonical union of intervals:
// sorted, disjoint, and with no empty gap between two neighbours. Canonical form makes
// containment interval-by-interval exact, which is what covering of filters rests on.
//
// Lower bounds are always closed (an open lower bound `> a` is the closed bound at the successor
// of `a`, which both domains have). Upper bounds are closed, open, or unbounded; the number
// domain has no use for open ones (it has predecessors) and uses its top element (NaN) instead of
// unbounded, so every number interval is [lo, hi].
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cwf::pubsub {

// Numbers ordered as the engine's Value compares them: -inf < ... < +inf < NaN, -0 == +0.
struct NumberDomain {
  using Type = double;
  static bool less(double a, double b) {
    if (std::isnan(b)) return !std::isnan(a);
    if (std::isnan(a)) return false;
    return a < b;
  }
  static double bottom() { return -std::numeric_limits<double>::infinity(); }
  static double top() { return std::numeric_limits<double>::quiet_NaN(); }
  static std::optional<double> successor(double a) {
    if (std::isnan(a)) return std::nullopt;
    if (a == std::numeric_limits<double>::infinity()) return top();
    return std::nextafter(a, std::numeric_limits<double>::infinity());
  }
  static std::optional<double> predecessor(double a) {
    if (std::isnan(a)) return std::numeric_limits<double>::infinity();
    if (a == bottom()) return std::nullopt;
    return std::nextafter(a, -std::numeric_limits<double>::infinity());
  }
};

// Strings in byte order (unsigned, as std::string_view compares): "" is the least string and the
// successor of s is s + '\0'; there is no predecessor, so upper bounds may be open.
struct StringDomain {
  using Type = std::string;
  static bool less(const std::string& a, const std::string& b) { return a < b; }
  static std::string bottom() { return {}; }
  static std::optional<std::string> successor(const std::string& a) {
    return a + std::string(1, '\0');
  }
};

template <typename Domain>
class IntervalSet {
 public:
  using T = typename Domain::Type;
  enum class UpperKind { closed, open, unbounded };
  struct Interval {
    T lo;  // closed
    T hi;  // ignored when unbounded
    UpperKind upper = UpperKind::closed;
  };

  static IntervalSet none() { return IntervalSet(); }
  static IntervalSet all() { return of(Domain::bottom(), {}, UpperKind::unbounded); }
  // One interval; an empty one gives the empty set.
  static IntervalSet of(T lo, T hi, UpperKind upper) {
    IntervalSet set;
    set.add(Interval{std::move(lo), std::move(hi), upper});
    set.canonicalize();
    return set;
  }
  static IntervalSet unite(IntervalSet a, const IntervalSet& b) {
    for (const Interval& i : b.intervals_)
      a.add(i);
    a.canonicalize();
    return a;
  }

  bool empty() const { return intervals_.empty(); }
  const std::vector<Interval>& intervals() const { return intervals_; }

  IntervalSet intersect(const IntervalSet& other) const {
    IntervalSet out;
    for (const Interval& a : intervals_)
      for (const Interval& b : other.intervals_) {
        Interval both{max_lower(a.lo, b.lo), {}, UpperKind::closed};
        const Interval& smaller = upper_less(a, b) ? a : b;
        both.hi = smaller.hi;
        both.upper = smaller.upper;
        out.add(std::move(both));
      }
    out.canonicalize();
    return out;
  }
  bool overlaps(const IntervalSet& other) const { return !intersect(other).empty(); }
  // Every value of `other` is in this set. Exact because this set is canonical: an interval of
  // `other` (connected) lies within the union only if it lies within one of its intervals.
  bool contains(const IntervalSet& other) const {
    for (const Interval& b : other.intervals_) {
      bool inside = false;
      for (const Interval& a : intervals_)
        if (!Domain::less(b.lo, a.lo) && !upper_less(a, b)) {
          inside = true;
          break;
        }
      if (!inside) return false;
    }
    return true;
  }
  bool contains(const T& value) const {
    for (const Interval& a : intervals_)
      if (!Domain::less(value, a.lo) && below_upper(value, a)) return true;
    return false;
  }
  friend bool operator==(const IntervalSet& a, const IntervalSet& b) {
    return a.contains(b) && b.contains(a);
  }

 private:
  static const T& max_lower(const T& a, const T& b) { return Domain::less(a, b) ? b : a; }
  // Upper bound of a before that of b (unbounded last; at one value, open before closed).
  static bool upper_less(const Interval& a, const Interval& b) {
    if (a.upper == UpperKind::unbounded) return false;
    if (b.upper == UpperKind::unbounded) return true;
    if (Domain::less(a.hi, b.hi)) return true;
    if (Domain::less(b.hi, a.hi)) return false;
    return a.upper == UpperKind::open && b.upper == UpperKind::closed;
  }
  static bool below_upper(const T& value, const Interval& i) {
    switch (i.upper) {
      case UpperKind::unbounded:
        return true;
      case UpperKind::closed:
        return !Domain::less(i.hi, value);
      case UpperKind::open:
        return Domain::less(value, i.hi);
    }
    return false;
  }
  static bool is_empty(const Interval& i) {
    switch (i.upper) {
      case UpperKind::unbounded:
        return false;
      case UpperKind::closed:
        return Domain::less(i.hi, i.lo);
      case UpperKind::open:
        return !Domain::less(i.lo, i.hi);
    }
    return true;
  }
  // `[lo, s + '\0')` is `[lo, s]`: one spelling per set keeps comparisons exact.
  static void normalize(Interval& i) {
    if constexpr (std::is_same_v<T, std::string>) {
      if (i.upper == UpperKind::open && !i.hi.empty() && i.hi.back() == '\0') {
        i.hi.pop_back();
        i.upper = UpperKind::closed;
      }
    }
  }
  void add(Interval i) {
    normalize(i);
    if (!is_empty(i)) intervals_.push_back(std::move(i));
  }
  // Whether `next` (starting at or after `prev`) starts before the first value after `prev`.
  static bool touches(const Interval& prev, const Interval& next) {
    switch (prev.upper) {
      case UpperKind::unbounded:
        return true;
      case UpperKind::open:
        return !Domain::less(prev.hi, next.lo);
      case UpperKind::closed: {
        auto after = Domain::successor(prev.hi);
        return !after || !Domain::less(*after, next.lo);
      }
    }
    return false;
  }
  void canonicalize() {
    std::sort(intervals_.begin(), intervals_.end(),
              [](const Interval& a, const Interval& b) { return Domain::less(a.lo, b.lo); });
    std::vector<Interval> merged;
    for (Interval& i : intervals_) {
      if (!merged.empty() && touches(merged.back(), i)) {
        if (upper_less(merged.back(), i)) {
          merged.back().hi = std::move(i.hi);
          merged.back().upper = i.upper;
        }
      } else {
        merged.push_back(std::move(i));
      }
    }
    intervals_ = std::move(merged);
  }

  std::vector<Interval> intervals_;
};

using NumberSet = IntervalSet<NumberDomain>;
using StringSet = IntervalSet<StringDomain>;

}  // namespace cwf::pubsub
