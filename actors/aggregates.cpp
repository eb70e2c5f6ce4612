#include "actors/aggregates.hpp"

#include <stdexcept>

#include "runtime/expressions/expr_operators.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

AggregateFactory builtin_aggregate(std::string_view function) {
  if (function == "count") return [] { return std::make_unique<CountAggregate>(); };
  if (function == "sum") return [] { return std::make_unique<SumAggregate>(); };
  if (function == "avg") return [] { return std::make_unique<AvgAggregate>(); };
  if (function == "min") return [] { return std::make_unique<ExtremeAggregate>(false); };
  if (function == "max") return [] { return std::make_unique<ExtremeAggregate>(true); };
  return nullptr;
}

void SumAggregate::accumulate(const Value& v) {
  if (v.is_int()) {
    ints_ += static_cast<std::uint64_t>(v.as_int());
    ++numbers_;
  } else if (v.is_double()) {
    reals_ += v.as_double();
    ++numbers_;
    ++doubles_;
  }
}

void SumAggregate::compensate(const Value& v) {
  if (v.is_int()) {
    ints_ -= static_cast<std::uint64_t>(v.as_int());
    --numbers_;
  } else if (v.is_double()) {
    --numbers_;
    // The last double leaving resets the double sum, so that rounding does not accumulate
    // across windows that hold no doubles.
    reals_ = --doubles_ == 0 ? 0.0 : reals_ - v.as_double();
  }
}

Value SumAggregate::result() const {
  auto ints = static_cast<std::int64_t>(ints_);
  if (doubles_ == 0) return Value(ints);
  return Value(static_cast<double>(ints) + reals_);
}

Value AvgAggregate::result() const {
  if (numbers_ == 0) return Value();
  double sum = static_cast<double>(static_cast<std::int64_t>(ints_)) + reals_;
  return Value(sum / static_cast<double>(numbers_));
}

void ExtremeAggregate::accumulate(const Value& v) {
  if (v.is_null()) return;
  // The held values are ordered among themselves: the newest stands for them all. Ordering is
  // the expression language's (a string and a number have no order), never a silent pick.
  if (!deque_.empty() && expr::order(v, deque_.back()) == expr::Order::incompatible)
    throw std::invalid_argument(std::string(max_ ? "max" : "min") + ": cannot order " +
                                expr::describe_operand(v) + " with " +
                                expr::describe_operand(deque_.back()));
  // Values no better than the new one can never be the result again while it is held.
  while (!deque_.empty() && better(v, deque_.back()))
    deque_.pop_back();
  deque_.push_back(v);
}

void ExtremeAggregate::compensate(const Value& v) {
  // The oldest value is in the deque only if it is its front (nothing before it); an equal front
  // is then that value, as later equal values stand behind it.
  if (!v.is_null() && !deque_.empty() && compare(deque_.front(), v) == 0) deque_.pop_front();
}

void CountAggregate::save(SnapshotWriter& out) const {
  out.write_i64(n_);
}

void CountAggregate::restore(SnapshotReader& in) {
  n_ = in.read_i64("the count");
}

void SumAggregate::save(SnapshotWriter& out) const {
  out.write_u64(ints_);
  out.write_double(reals_);
  out.write_i64(numbers_);
  out.write_i64(doubles_);
}

void SumAggregate::restore(SnapshotReader& in) {
  ints_ = in.read_u64("the sum of the ints");
  reals_ = in.read_double("the sum of the doubles");
  numbers_ = in.read_i64("the number of numbers");
  doubles_ = in.read_i64("the number of doubles");
  if (numbers_ < 0 || doubles_ < 0 || doubles_ > numbers_)
    in.reject("the sum's counts", "they contradict each other");
}

void ExtremeAggregate::save(SnapshotWriter& out) const {
  out.write_u64(deque_.size());
  for (const Value& v : deque_)
    out.write_value(v);
}

void ExtremeAggregate::restore(SnapshotReader& in) {
  deque_.clear();
  for (std::size_t n = in.read_count("the number of candidates"); n > 0; --n)
    deque_.push_back(in.read_value("a candidate"));
}

}  // namespace cwf::actors
