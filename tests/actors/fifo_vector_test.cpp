// FifoVector: the queue of values an aggregate keeps per group (actors/fifo_vector.hpp).
#include "actors/fifo_vector.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <string>
#include <vector>

namespace cwf::actors {
namespace {

TEST(FifoVector, PopsInTheOrderPushed) {
  FifoVector<int> q;
  EXPECT_TRUE(q.empty());
  for (int i = 0; i < 5; ++i)
    q.push_back(i);
  EXPECT_EQ(q.size(), 5u);
  EXPECT_EQ(q.front(), 0);
  EXPECT_EQ(q.back(), 4);
  q.pop_front();
  q.pop_front();
  EXPECT_EQ(std::vector<int>(q.begin(), q.end()), (std::vector<int>{2, 3, 4}));
  q.clear();
  EXPECT_TRUE(q.empty());
}

// The same as std::deque over random pushes and pops, across the compactions of its front.
TEST(FifoVector, BehavesAsADequeUsedFromBothEnds) {
  std::mt19937 rng(7);
  FifoVector<std::string> q;
  std::deque<std::string> reference;
  for (int step = 0; step < 20000; ++step) {
    if (reference.empty() || rng() % 3 != 0) {
      std::string s = std::to_string(step);
      q.push_back(s);
      reference.push_back(s);
    } else {
      ASSERT_EQ(q.front(), reference.front());
      q.pop_front();
      reference.pop_front();
    }
    ASSERT_EQ(q.size(), reference.size());
    if (!reference.empty()) {
      ASSERT_EQ(q.back(), reference.back());
    }
  }
  EXPECT_EQ(std::vector<std::string>(q.begin(), q.end()),
            std::vector<std::string>(reference.begin(), reference.end()));
}

}  // namespace
}  // namespace cwf::actors
