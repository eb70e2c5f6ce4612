// GroupIndex (the index of a port's live groups by key) against a plain map: after any sequence
// of inserts and erases, every group is found under its hash and nothing else is, whatever the
// collisions (hashes drawn from a few values, equal homes, runs that wrap around the table).
#include "runtime/execution/group_index.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <random>
#include <vector>

namespace cwf {
namespace {

// Finds `group` under `hash` the way the receiver does: the hash, then the group's own key (here
// the group number itself).
std::size_t find(const GroupIndex& index, std::size_t hash, std::size_t group) {
  return index.find(hash, [group](std::size_t g) { return g == group; });
}

TEST(GroupIndex, FindsEveryGroupUnderItsHashAfterAnyInsertsAndErases) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    // Few distinct hashes on some seeds (long runs of equal hashes), any on others.
    const std::size_t hashes = seed % 2 ? 7 : 1'000'000;
    GroupIndex index;
    std::map<std::size_t, std::size_t> live;    // group -> hash
    std::map<std::size_t, std::size_t> erased;  // group -> hash
    std::size_t next_group = 0;
    for (int op = 0; op < 4000; ++op) {
      const bool insert = live.empty() || rng() % 3 != 0;
      if (insert) {
        const std::size_t hash = rng() % hashes * 0x100000001ULL;
        index.insert(hash, next_group);
        live[next_group++] = hash;
      } else {
        auto it = live.begin();
        std::advance(it, static_cast<std::ptrdiff_t>(rng() % live.size()));
        index.erase(it->second, it->first);
        erased[it->first] = it->second;
        live.erase(it);
      }
      ASSERT_EQ(index.size(), live.size());
      if (op % 97 != 0) continue;
      for (const auto& [group, hash] : live)
        ASSERT_EQ(find(index, hash, group), group) << "seed " << seed << ", op " << op;
      // Erased groups are not found under their hash any more.
      for (const auto& [group, hash] : erased)
        ASSERT_EQ(find(index, hash, group), GroupIndex::npos) << "seed " << seed << ", op " << op;
    }
  }
}

TEST(GroupIndex, AGroupIsFoundOnlyUnderItsOwnHash) {
  GroupIndex index;
  index.insert(42, 0);
  index.insert(42, 1);  // the same hash: the caller's comparison tells them apart
  EXPECT_EQ(find(index, 42, 1), 1u);
  EXPECT_EQ(find(index, 43, 1), GroupIndex::npos);
  index.erase(42, 0);
  EXPECT_EQ(find(index, 42, 0), GroupIndex::npos);
  EXPECT_EQ(find(index, 42, 1), 1u);
  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(find(index, 42, 1), GroupIndex::npos);
}

}  // namespace
}  // namespace cwf
