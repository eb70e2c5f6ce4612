// The Perl validator's toll rows by (carid, dir, seg): it keeps one row per car and segment,
// the car's first visit, so this says which visit Perl notified and what toll it charged.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "linear_road/answer_keys.hpp"
#include "linear_road/expected_perl.hpp"

namespace cwf::lr {

struct PerlSegmentRow {
  std::uint64_t key;  // car_segment_key
  Seconds time;
  std::int32_t toll;
};

class PerlSegmentIndex {
 public:
  explicit PerlSegmentIndex(const std::vector<PerlTollRow>& rows) {
    rows_.reserve(rows.size());
    for (const PerlTollRow& r : rows)
      rows_.push_back({car_segment_key(r.carid, r.dir, r.seg), r.time, r.toll});
    std::sort(rows_.begin(), rows_.end(),
              [](const auto& a, const auto& b) { return a.key < b.key; });
  }

  // Null when Perl has no row for the car in that segment.
  const PerlSegmentRow* find(std::int32_t carid, std::int32_t dir, std::int32_t seg) const {
    auto key = car_segment_key(carid, dir, seg);
    auto it = std::lower_bound(rows_.begin(), rows_.end(), key,
                               [](const PerlSegmentRow& r, std::uint64_t k) { return r.key < k; });
    return it != rows_.end() && it->key == key ? &*it : nullptr;
  }

 private:
  std::vector<PerlSegmentRow> rows_;
};

}  // namespace cwf::lr
