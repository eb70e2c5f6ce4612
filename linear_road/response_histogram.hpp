// A histogram of response times with about 9% relative resolution (8 buckets per power of two)
// from 1 µs to about 18 minutes: constant memory however many answers, mergeable, and precise
// enough for means and percentiles that are compared with a 5-second limit.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "runtime/time/clock.hpp"

namespace cwf::lr {

class ResponseHistogram {
 public:
  static constexpr int kSubBuckets = 8;
  static constexpr int kOctaves = 30;  // 2^30 µs ≈ 18 min
  static constexpr int kBuckets = kSubBuckets * kOctaves;

  void record(Duration response) {
    std::uint64_t us = response <= 0 ? 0 : static_cast<std::uint64_t>(response) / 1000;
    ++buckets_[bucket_of(us)];
    ++count_;
    sum_ns_ += static_cast<double>(response > 0 ? response : 0);
    if (response > max_) max_ = response;
  }
  void merge(const ResponseHistogram& other) {
    for (int i = 0; i < kBuckets; ++i)
      buckets_[i] += other.buckets_[i];
    count_ += other.count_;
    sum_ns_ += other.sum_ns_;
    if (other.max_ > max_) max_ = other.max_;
  }
  std::uint64_t count() const { return count_; }
  Duration mean() const { return count_ ? static_cast<Duration>(sum_ns_ / count_) : 0; }
  Duration max() const { return max_; }
  // The response time below which a fraction q of the answers lie (the upper edge of the
  // bucket holding that rank, capped by the maximum seen).
  Duration percentile(double q) const {
    if (count_ == 0) return 0;
    auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
    if (rank == 0) rank = 1;
    std::uint64_t seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
      seen += buckets_[i];
      if (seen >= rank) return std::min<Duration>(upper_edge_ns(i), max_);
    }
    return max_;
  }

 private:
  static int bucket_of(std::uint64_t us) {
    if (us < kSubBuckets) return static_cast<int>(us);
    int octave = std::bit_width(us) - 1;  // us in [2^octave, 2^(octave+1))
    int sub = static_cast<int>((us >> (octave - 3)) & (kSubBuckets - 1));
    int bucket = (octave - 2) * kSubBuckets + sub;
    return bucket < kBuckets ? bucket : kBuckets - 1;
  }
  static Duration upper_edge_ns(int bucket) {
    if (bucket < kSubBuckets) return static_cast<Duration>(bucket + 1) * 1000;
    int octave = bucket / kSubBuckets + 2;
    int sub = bucket % kSubBuckets;
    std::uint64_t us =
        (std::uint64_t{1} << octave) + (static_cast<std::uint64_t>(sub + 1) << (octave - 3));
    return static_cast<Duration>(us) * 1000;
  }

  std::array<std::uint64_t, kBuckets> buckets_{};
  std::uint64_t count_ = 0;
  double sum_ns_ = 0;
  Duration max_ = 0;
};

}  // namespace cwf::lr
