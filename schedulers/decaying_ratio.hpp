// A ratio of two sums that forgets the past geometrically: both sums halve whenever the
// denominator passes a horizon, so the ratio reflects roughly the last `horizon` units of the
// denominator. Exact (not an estimate) while behaviour is constant, which keeps policy decisions
// reproducible under a cost model.
#pragma once

namespace cwf::schedulers {

class DecayingRatio {
 public:
  DecayingRatio() = default;
  explicit DecayingRatio(double horizon) : horizon_(horizon) {}
  void add(double numerator, double denominator) {
    numerator_ += numerator;
    denominator_ += denominator;
    while (denominator_ > horizon_) {
      numerator_ *= 0.5;
      denominator_ *= 0.5;
    }
  }
  bool empty() const { return denominator_ == 0; }
  double value_or(double fallback) const {
    return denominator_ == 0 ? fallback : numerator_ / denominator_;
  }

 private:
  double horizon_ = 1024;
  double numerator_ = 0;
  double denominator_ = 0;
};

}  // namespace cwf::schedulers
