// Window aggregates: the C++ interface an incremental aggregate implements, and the built-ins
// (count, sum, avg, min, max).
//
// An aggregate sees the values of a window as a FIFO: accumulate() adds the newest value at the
// back, compensate() removes the oldest one still held (always in arrival order, so aggregates
// that cannot subtract, such as min and max, keep a monotonic deque). Null values are part of
// the FIFO; the built-ins ignore them (count counts the non-null ones).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string_view>

#include "runtime/values/value.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::actors {

class Aggregate {
 public:
  virtual ~Aggregate() = default;
  // The newest value of the window.
  virtual void accumulate(const Value& value) = 0;
  // The oldest value still held leaves the window: the value given is the one accumulated
  // first among those not yet compensated.
  virtual void compensate(const Value& value) = 0;
  // The aggregate of the values held; null for an empty window where there is none.
  virtual Value result() const = 0;
  // Back to the state of no value held.
  virtual void reset() = 0;

  // Checkpoints: an aggregate that can write its state exactly (a sum of doubles is written, not
  // summed again, which could round differently) says so and implements save and restore; an
  // aggregate actor with one that cannot is refused for checkpointing.
  virtual bool checkpointable() const { return false; }
  virtual void save(SnapshotWriter& /*out*/) const {}
  // Throws SnapshotError for state that does not fit.
  virtual void restore(SnapshotReader& /*in*/) {}
};

using AggregateFactory = std::function<std::unique_ptr<Aggregate>()>;

// "count", "sum", "avg", "min", "max"; null for another name.
AggregateFactory builtin_aggregate(std::string_view function);

// count: the number of non-null values (an int).
class CountAggregate final : public Aggregate {
 public:
  void accumulate(const Value& v) override { n_ += !v.is_null(); }
  void compensate(const Value& v) override { n_ -= !v.is_null(); }
  Value result() const override { return Value(n_); }
  void reset() override { n_ = 0; }
  bool checkpointable() const override { return true; }
  void save(SnapshotWriter& out) const override;
  void restore(SnapshotReader& in) override;

 private:
  std::int64_t n_ = 0;
};

// sum: integers are added exactly (wrapping on overflow), doubles as doubles; an int while no
// double is held, else a double. Non-numbers are ignored. avg: the sum / the number of numbers,
// a double (null without numbers).
class SumAggregate : public Aggregate {
 public:
  void accumulate(const Value& v) override;
  void compensate(const Value& v) override;
  Value result() const override;
  void reset() override { *this = SumAggregate(); }
  bool checkpointable() const override { return true; }
  void save(SnapshotWriter& out) const override;
  void restore(SnapshotReader& in) override;

 protected:
  std::uint64_t ints_ = 0;  // wrapping sum of the ints
  double reals_ = 0;        // sum of the doubles
  std::int64_t numbers_ = 0, doubles_ = 0;
};

class AvgAggregate final : public SumAggregate {
 public:
  Value result() const override;
};

// min / max of the non-null values in the order of Value comparison (numbers numerically); of
// equal values the earliest. A monotonic deque: O(1) amortised per value.
class ExtremeAggregate final : public Aggregate {
 public:
  explicit ExtremeAggregate(bool max) : max_(max) {}
  // Throws std::invalid_argument for a value that has no order with those held.
  void accumulate(const Value& v) override;
  void compensate(const Value& v) override;
  Value result() const override { return deque_.empty() ? Value() : deque_.front(); }
  void reset() override { deque_.clear(); }
  bool checkpointable() const override { return true; }
  void save(SnapshotWriter& out) const override;
  void restore(SnapshotReader& in) override;

 private:
  bool better(const Value& a, const Value& b) const { return max_ ? a > b : a < b; }
  bool max_;
  std::deque<Value> deque_;
};

}  // namespace cwf::actors
