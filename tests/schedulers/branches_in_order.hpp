// The check shared by the tests that run `src -> branch b -> sink` workflows whose branch b adds
// b * offset (+ `added` along the branch) to the integers 0 .. N-1: the sink got every number of
// every branch once, each branch in order.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/actor/event.hpp"

namespace cwf::schedulers::testing {

inline void expect_every_branch_in_order(const std::vector<Event>& events, int events_per_branch,
                                         int branches, std::int64_t offset, std::int64_t added) {
  ASSERT_EQ(events.size(), static_cast<std::size_t>(events_per_branch * branches));
  std::vector<std::int64_t> next(static_cast<std::size_t>(branches), 0);
  for (const Event& e : events) {
    std::int64_t v = e.token.as_int() - added;
    auto b = static_cast<std::size_t>(v / offset);
    ASSERT_LT(b, next.size());
    ASSERT_EQ(v % offset, next[b]) << "branch " << b;  // in order, none lost, none twice
    ++next[b];
  }
}

}  // namespace cwf::schedulers::testing
