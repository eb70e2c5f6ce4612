// Response times of Linear Road answers as a run goes: per answer type, for the whole run and
// per second of wall time since the run started, so a harness can watch response times develop
// (the L-rating, the scheduler experiments' response-time curves). The answer sink records;
// any thread may read a snapshot while the run goes on.
#pragma once

#include <array>
#include <chrono>
#include <mutex>
#include <vector>

#include "linear_road/response_histogram.hpp"

namespace cwf::lr {

class ResponseTimes {
 public:
  static constexpr int kTypes = 4;  // answer types 0-3
  using PerType = std::array<ResponseHistogram, kTypes>;

  ResponseTimes() : started_(std::chrono::steady_clock::now()) {}
  // Seconds are counted from here (default: construction).
  void restart() {
    std::lock_guard lock(mutex_);
    started_ = std::chrono::steady_clock::now();
    total_ = {};
    seconds_.clear();
  }

  // An answer of `type` (0-3) left `response` after its tuple was released (wall time).
  void record(int type, Duration response) {
    auto second = static_cast<std::size_t>(std::chrono::duration_cast<std::chrono::seconds>(
                                               std::chrono::steady_clock::now() - started_)
                                               .count());
    std::lock_guard lock(mutex_);
    if (seconds_.size() <= second) seconds_.resize(second + 1);
    seconds_[second][type].record(response);
    total_[type].record(response);
  }

  PerType total() const {
    std::lock_guard lock(mutex_);
    return total_;
  }
  // Histograms of the answers that left during wall second `second` (empty if none).
  PerType second(std::size_t second) const {
    std::lock_guard lock(mutex_);
    return second < seconds_.size() ? seconds_[second] : PerType{};
  }
  std::size_t seconds() const {
    std::lock_guard lock(mutex_);
    return seconds_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::chrono::steady_clock::time_point started_;
  PerType total_{};
  std::vector<PerType> seconds_;
};

}  // namespace cwf::lr
