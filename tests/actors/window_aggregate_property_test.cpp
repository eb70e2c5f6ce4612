// The incremental aggregate equals recomputation on every window, for random streams (ints and
// integer-valued doubles, several groups, random and partly out-of-order timestamps) and random
// window specs (token and time sizes and steps, sliding, tumbling and skipping, with and without
// group-by and delete_used), driven through the window operator itself.
//
// The doubles are integer-valued (and small), so that sums are exact in any order: the
// incremental sum subtracts what recomputation never adds, and with arbitrary doubles the two
// would differ by rounding (which is why SumAggregate resets its double sum whenever no double
// is held).
#include <gtest/gtest.h>

#include <random>

#include "actors/window_aggregate.hpp"
#include "tests/runtime/window_harness.hpp"

namespace cwf::actors {
namespace {

using cwf::testing::WindowHarness;

std::string extent(std::mt19937& rng, bool time) {
  std::uniform_int_distribution<int> amount(1, 12);
  return time ? std::to_string(amount(rng)) + " ns" : std::to_string(amount(rng)) + " tokens";
}

WindowSpec random_spec(std::mt19937& rng) {
  WindowSpec spec;
  std::uniform_int_distribution<int> pick(0, 5);
  int size = pick(rng), step = pick(rng);
  // Mostly bounded windows; sometimes no step (every event) or no size (unbounded).
  if (size != 0) spec.size = parse_window_extent(extent(rng, size % 2 == 1));
  if (step != 0) spec.step = parse_window_extent(extent(rng, step % 2 == 1));
  if (rng() % 2) spec.group_by = {"/g"};
  spec.delete_used = rng() % 3 == 0;
  spec.suppress_empty = rng() % 2;
  return spec;
}

std::string show(const Value& v) {
  return v.is_null()  ? "null"
         : v.is_int() ? std::to_string(v.as_int())
                      : std::to_string(v.as_double());
}

bool same(const Value& a, const Value& b) {
  return a.is_int() == b.is_int() && a.is_null() == b.is_null() && (a.is_null() || a == b);
}

TEST(WindowAggregateProperty, IncrementalEqualsRecomputation) {
  std::mt19937 rng(20240501);
  const char* functions[] = {"count", "sum", "avg", "min", "max"};
  std::uint64_t windows = 0, incremental_work = 0, recompute_work = 0;
  for (int round = 0; round < 400; ++round) {
    WindowSpec spec = random_spec(rng);
    SCOPED_TRACE(spec.describe());
    std::string function = functions[round % 5];
    SCOPED_TRACE(function);
    std::optional<Expression> value;
    if (function != "count" || rng() % 2) value = Expression::compile("/v");
    IncrementalAggregate incremental(builtin_aggregate(function), value, false);
    IncrementalAggregate recomputed(builtin_aggregate(function), value, true);
    WindowHarness w(spec);
    int groups = 1 + static_cast<int>(rng() % 4);
    bool doubles = rng() % 2;
    Timestamp t = 0;
    // A window is consumed (delete_used) unless the actor declines it, at random.
    auto take = [&] {
      while (w.has_window()) {
        Window window = w.front_window();
        Value a = incremental.apply(window), b = recomputed.apply(window);
        ASSERT_TRUE(same(a, b)) << "window " << windows << ": " << show(a) << " != " << show(b);
        ++windows;
        bool fired = rng() % 4 != 0;
        w.finish_window(fired, fired);
      }
    };
    int n = 1 + static_cast<int>(rng() % 200);
    for (int i = 0; i < n; ++i) {
      t += static_cast<Timestamp>(rng() % 4);
      Timestamp at = rng() % 8 == 0 ? t - static_cast<Timestamp>(rng() % 5) : t;  // out of order
      int v = static_cast<int>(rng() % 41) - 20;
      Value token =
          Value::record({{"g", Value(static_cast<std::int64_t>(rng() % groups))},
                         {"v", rng() % 10 == 0        ? Value()
                               : doubles && rng() % 2 ? Value(static_cast<double>(v))
                                                      : Value(static_cast<std::int64_t>(v))}});
      w.push(std::move(token), at);
      if (rng() % 3 == 0) {
        w.advance(t, false);
        take();
      }
    }
    w.advance(t, true);
    take();
    incremental_work += incremental.evaluated();
    recompute_work += recomputed.evaluated();
  }
  EXPECT_GT(windows, 5000u);
  // Not a tautology: recomputation re-evaluates overlapping windows.
  EXPECT_LT(incremental_work, recompute_work);
}

}  // namespace
}  // namespace cwf::actors
