// The directory of numbered checkpoints (runtime/snapshot/checkpoint_store.hpp): what commit
// keeps, and how latest_valid falls back past damaged files and ignores a crashed write's
// temporaries.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "runtime/snapshot/checkpoint_store.hpp"

#include "scratch_folder_test_base.hpp"

namespace cwf {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

class CheckpointStoreTest : public testing::ScratchFolderTest {
 protected:
  CheckpointStoreTest() : ScratchFolderTest("cwf-checkpoint-store") {}
  static Bytes payload(std::uint8_t n) { return Bytes{'s', n}; }
};

TEST_F(CheckpointStoreTest, CommitsAreNumberedAndTheLastThreeKept) {
  CheckpointStore store(dir_);
  EXPECT_EQ(store.keep(), 3u);
  EXPECT_TRUE(store.numbers().empty());
  for (std::uint8_t n = 1; n <= 5; ++n)
    EXPECT_EQ(store.commit(payload(n)), n);
  EXPECT_EQ(files(),
            (std::vector<std::string>{"checkpoint-000003.cwfckpt", "checkpoint-000004.cwfckpt",
                                      "checkpoint-000005.cwfckpt"}));
  EXPECT_EQ(store.numbers(), (std::vector<std::uint64_t>{3, 4, 5}));
  const CheckpointStore::Recovery recovery = store.latest_valid();
  ASSERT_TRUE(recovery.checkpoint.has_value());
  EXPECT_EQ(recovery.checkpoint->number, 5u);
  EXPECT_EQ(recovery.checkpoint->path, dir_ / "checkpoint-000005.cwfckpt");
  EXPECT_EQ(recovery.checkpoint->payload, payload(5));
  EXPECT_TRUE(recovery.refused.empty());
}

TEST_F(CheckpointStoreTest, HowManyAreKeptIsSettable) {
  CheckpointStore store(dir_, 5);
  for (std::uint8_t n = 1; n <= 7; ++n)
    store.commit(payload(n));
  EXPECT_EQ(store.numbers(), (std::vector<std::uint64_t>{3, 4, 5, 6, 7}));
  store.set_keep(1);
  store.commit(payload(8));
  EXPECT_EQ(store.numbers(), (std::vector<std::uint64_t>{8}));
  store.set_keep(0);  // one at least: the one just written
  store.commit(payload(9));
  EXPECT_EQ(store.numbers(), (std::vector<std::uint64_t>{9}));
}

TEST_F(CheckpointStoreTest, NumberingGoesOnInAStoreOpenedAgain) {
  {
    CheckpointStore store(dir_);
    store.commit(payload(1));
    store.commit(payload(2));
  }
  CheckpointStore again(dir_);
  EXPECT_EQ(again.commit(payload(3)), 3u);
}

TEST_F(CheckpointStoreTest, LatestValidFallsBackPastACorruptNewestFile) {
  CheckpointStore store(dir_);
  for (std::uint8_t n = 1; n <= 3; ++n)
    store.commit(payload(n));
  Bytes newest = contents(store.path_of(3));
  newest.back() ^= 0x01;
  overwrite(store.path_of(3), newest);

  const CheckpointStore::Recovery recovery = store.latest_valid();
  ASSERT_TRUE(recovery.checkpoint.has_value());
  EXPECT_EQ(recovery.checkpoint->number, 2u);
  EXPECT_EQ(recovery.checkpoint->payload, payload(2));
  ASSERT_EQ(recovery.refused.size(), 1u);
  EXPECT_EQ(recovery.refused[0].number, 3u);
  EXPECT_EQ(recovery.refused[0].problem, CheckpointProblem::checksum_mismatch);
  EXPECT_EQ(describe(recovery.refused[0]), "checkpoint 3 is corrupt (checksum mismatch)");
}

TEST_F(CheckpointStoreTest, EveryRefusedNewerCheckpointIsReportedNewestFirst) {
  CheckpointStore store(dir_, 4);
  for (std::uint8_t n = 1; n <= 4; ++n)
    store.commit(payload(n));
  Bytes truncated = contents(store.path_of(4));
  truncated.pop_back();
  overwrite(store.path_of(4), truncated);
  Bytes other_version = contents(store.path_of(3));
  other_version[8] = 7;
  overwrite(store.path_of(3), other_version);

  const CheckpointStore::Recovery recovery = store.latest_valid();
  ASSERT_TRUE(recovery.checkpoint.has_value());
  EXPECT_EQ(recovery.checkpoint->number, 2u);
  ASSERT_EQ(recovery.refused.size(), 2u);
  EXPECT_EQ(describe(recovery.refused[0]), "checkpoint 4 is corrupt (truncated)");
  EXPECT_EQ(describe(recovery.refused[1]),
            "checkpoint 3 is incompatible (written in format version 7, this build reads "
            "version 3)");
}

TEST_F(CheckpointStoreTest, NothingValidIsNoCheckpointWithEveryReason) {
  CheckpointStore empty(dir_);
  EXPECT_FALSE(empty.latest_valid().checkpoint.has_value());
  EXPECT_TRUE(empty.latest_valid().refused.empty());

  empty.commit(payload(1));
  empty.commit(payload(2));
  overwrite(empty.path_of(1), Bytes{});
  overwrite(empty.path_of(2), Bytes{'n', 'o', 'p', 'e', '!', '!', '!', '!'});
  const CheckpointStore::Recovery recovery = empty.latest_valid();
  EXPECT_FALSE(recovery.checkpoint.has_value());
  ASSERT_EQ(recovery.refused.size(), 2u);
  EXPECT_EQ(describe(recovery.refused[0]), "checkpoint 2 is corrupt (not a checkpoint file)");
  EXPECT_EQ(describe(recovery.refused[1]), "checkpoint 1 is corrupt (truncated)");
}

TEST_F(CheckpointStoreTest, ACommitAfterACorruptNewestFileNumbersPastIt) {
  CheckpointStore store(dir_);
  store.commit(payload(1));
  store.commit(payload(2));
  overwrite(store.path_of(2), Bytes{});
  EXPECT_EQ(store.commit(payload(3)), 3u);
  EXPECT_EQ(store.latest_valid().checkpoint->number, 3u);
}

TEST_F(CheckpointStoreTest, TemporariesOfACrashedWriteAreIgnoredThenRemoved) {
  CheckpointStore store(dir_);
  store.commit(payload(1));
  store.commit(payload(2));
  // A crash while checkpoint 3 was being written, and another file that is not the store's.
  overwrite(dir_ / "checkpoint-000003.cwfckpt.tmp-4242-0", Bytes{'C', 'W', 'F'});
  overwrite(dir_ / "notes.txt", Bytes{'x'});

  EXPECT_EQ(store.numbers(), (std::vector<std::uint64_t>{1, 2}));
  const CheckpointStore::Recovery recovery = store.latest_valid();
  ASSERT_TRUE(recovery.checkpoint.has_value());
  EXPECT_EQ(recovery.checkpoint->number, 2u);
  EXPECT_TRUE(recovery.refused.empty());

  EXPECT_EQ(store.commit(payload(3)), 3u);
  EXPECT_EQ(files(),
            (std::vector<std::string>{"checkpoint-000001.cwfckpt", "checkpoint-000002.cwfckpt",
                                      "checkpoint-000003.cwfckpt", "notes.txt"}));
  EXPECT_EQ(store.latest_valid().checkpoint->payload, payload(3));
}

TEST_F(CheckpointStoreTest, OnlyTheStoresOwnNamesAreCheckpoints) {
  EXPECT_EQ(CheckpointStore::number_in("checkpoint-000042.cwfckpt"), 42u);
  EXPECT_EQ(CheckpointStore::number_in("checkpoint-1234567.cwfckpt"), 1234567u);
  EXPECT_EQ(CheckpointStore::number_in("checkpoint-.cwfckpt"), std::nullopt);
  EXPECT_EQ(CheckpointStore::number_in("checkpoint-+42.cwfckpt"), std::nullopt);
  EXPECT_EQ(CheckpointStore::number_in("checkpoint-000042.cwfckpt.tmp-1-0"), std::nullopt);
  EXPECT_EQ(CheckpointStore::number_in("checkpoint-99999999999999999999999.cwfckpt"), std::nullopt);
  CheckpointStore store(dir_);
  EXPECT_EQ(store.path_of(42), dir_ / "checkpoint-000042.cwfckpt");
}

}  // namespace
}  // namespace cwf
