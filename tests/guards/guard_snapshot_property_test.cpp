// A guard written to a checkpoint and read back is the same guard: random guards of random
// dependency workflows (fixed seeds), saved after a random prefix of announcements (happened and
// promised literals) and restored, then given the rest of the announcements alongside the
// original; after each, both read the same, hold now alike and write the same bytes.
#include <gtest/gtest.h>

#include <random>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "tests/guards/guard_test_util.hpp"

namespace cwf::guards {
namespace {

std::vector<std::uint8_t> bytes_of(const Guard& guard) {
  SnapshotWriter out;
  guard.save(out);
  return out.take_bytes();
}

Guard restored(const std::vector<std::uint8_t>& bytes) {
  SnapshotReader in(bytes);
  Guard guard = Guard::restore(in);
  in.expect_end();
  return guard;
}

void announce(Guard& guard, const Literal& literal, bool promised) {
  if (promised)
    guard.announce_promised(literal);
  else
    guard.announce_happened(literal);
}

class GuardSnapshotProperty : public ::testing::TestWithParam<unsigned> {};

TEST_P(GuardSnapshotProperty, ARestoredGuardGoesOnAsTheOriginal) {
  std::mt19937 random(GetParam());
  std::size_t compared = 0, nontrivial = 0;
  for (int w = 0; w < 300; ++w) {
    DependencySet set = testing::random_workflow(random);
    for (const std::string& event : set.events)
      for (bool complement : {false, true}) {
        Guard original = set.guard(Literal{event, complement});
        // Announcements of the other events, as event actors would send them.
        std::vector<std::pair<Literal, bool>> announcements;
        for (const std::string& other : set.events)
          if (other != event && random() % 4 != 0)
            announcements.push_back({Literal{other, random() % 2 == 0}, random() % 3 == 0});
        std::shuffle(announcements.begin(), announcements.end(), random);
        std::size_t cut = announcements.empty() ? 0 : random() % (announcements.size() + 1);
        for (std::size_t i = 0; i < cut; ++i)
          announce(original, announcements[i].first, announcements[i].second);
        Guard copy = restored(bytes_of(original));
        nontrivial += !original.is_top() && !original.is_zero();
        for (std::size_t i = cut; i <= announcements.size(); ++i) {
          const Literal guarded{event, complement};
          SCOPED_TRACE("seed " + std::to_string(GetParam()) + ", workflow " + std::to_string(w) +
                       ", guard of " + guarded.text() + ", after " + std::to_string(i) +
                       " announcements\n" + testing::describe(set));
          ASSERT_EQ(copy.text(), original.text());
          ASSERT_EQ(copy.holds_now(), original.holds_now());
          ASSERT_EQ(bytes_of(copy), bytes_of(original));
          ++compared;
          if (i == announcements.size()) break;
          announce(original, announcements[i].first, announcements[i].second);
          announce(copy, announcements[i].first, announcements[i].second);
        }
      }
  }
  EXPECT_GT(compared, 500u);
  EXPECT_GT(nontrivial, 100u);  // guards with terms to save, not only T and 0
}

INSTANTIATE_TEST_SUITE_P(Seeds, GuardSnapshotProperty, ::testing::Values(21u, 22u, 23u));

}  // namespace
}  // namespace cwf::guards
