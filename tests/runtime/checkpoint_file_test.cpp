// Checkpoint files (runtime/snapshot/checkpoint_file.hpp): the exact header, the atomic write,
// and that no damage to a file goes unnoticed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "runtime/snapshot/checkpoint_file.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

#include "scratch_folder_test_base.hpp"

namespace cwf {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

class CheckpointFile : public testing::ScratchFolderTest {
 protected:
  CheckpointFile() : ScratchFolderTest("cwf-checkpoint-file") {}

  // The problem verify_checkpoint finds in `file`, or nothing.
  static std::optional<CheckpointProblem> problem_of(const Bytes& file) {
    try {
      verify_checkpoint(file, "f");
    } catch (const CheckpointFileError& e) {
      return e.problem();
    }
    return std::nullopt;
  }
};

const Bytes kPayload = {0x03, 0x02};

TEST_F(CheckpointFile, TheHeaderIsMagicVersionLengthAndChecksum) {
  // CRC-32 of {0x03, 0x02} is 0x84fa2010.
  EXPECT_EQ(encode_checkpoint(kPayload), (Bytes{'C',  'W',  'F',  'C',  'K',  'P',  'T',  0x00,  //
                                                0x03, 0x00, 0x00, 0x00,                          //
                                                0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //
                                                0x10, 0x20, 0xfa, 0x84,                          //
                                                0x03, 0x02}));
}

TEST_F(CheckpointFile, WhatIsWrittenReadsBackAndNoTemporaryIsLeft) {
  SnapshotWriter snapshot;
  snapshot.begin_section("actor:tolls");
  snapshot.write_event(Event{Value::record({{"seg", 12}}), 100, WaveTag(100, 1).child(2, true)});
  snapshot.end_section();
  const fs::path path = dir_ / "state.cwfckpt";
  write_checkpoint_file(path, snapshot.bytes());
  EXPECT_EQ(contents(path), encode_checkpoint(snapshot.bytes()));
  const Bytes payload = read_checkpoint_file(path);
  EXPECT_TRUE(
      std::equal(payload.begin(), payload.end(), snapshot.bytes().begin(), snapshot.bytes().end()));
  EXPECT_EQ(files(), std::vector<std::string>{"state.cwfckpt"});

  // A second write replaces the file whole.
  write_checkpoint_file(path, kPayload);
  EXPECT_EQ(read_checkpoint_file(path), kPayload);
  EXPECT_EQ(files(), std::vector<std::string>{"state.cwfckpt"});
  // An empty payload is a valid checkpoint.
  write_checkpoint_file(path, {});
  EXPECT_EQ(read_checkpoint_file(path), Bytes{});
}

TEST_F(CheckpointFile, EverySingleByteChangeIsDetectedAndNamed) {
  const Bytes file = encode_checkpoint(Bytes{'s', 't', 'a', 't', 'e', 0x00, 0xff});
  ASSERT_EQ(problem_of(file), std::nullopt);
  for (std::size_t at = 0; at < file.size(); ++at) {
    for (std::uint8_t flip : {0x01, 0x80, 0xff}) {
      Bytes damaged = file;
      damaged[at] ^= flip;
      CheckpointProblem expected = CheckpointProblem::checksum_mismatch;  // checksum or payload
      if (at < 8)
        expected = CheckpointProblem::not_a_checkpoint;
      else if (at < 12)
        expected = CheckpointProblem::incompatible_version;
      else if (at < 20)  // a length larger or smaller than the file's
        expected = (damaged[at] > file[at]) ? CheckpointProblem::truncated
                                            : CheckpointProblem::trailing_bytes;
      EXPECT_EQ(problem_of(damaged), expected) << "byte " << at << " ^ " << int{flip};
    }
  }
  // And on disk.
  const fs::path path = dir_ / "state.cwfckpt";
  for (std::size_t at = 0; at < file.size(); ++at) {
    Bytes damaged = file;
    damaged[at] ^= 0x04;
    overwrite(path, damaged);
    EXPECT_THROW(read_checkpoint_file(path), CheckpointFileError) << "byte " << at;
  }
}

TEST_F(CheckpointFile, EveryTruncationIsDetected) {
  const Bytes file = encode_checkpoint(Bytes{1, 2, 3, 4, 5});
  for (std::size_t length = 0; length < file.size(); ++length) {
    EXPECT_EQ(problem_of(Bytes(file.begin(), file.begin() + static_cast<long>(length))),
              CheckpointProblem::truncated)
        << length << " bytes";
  }
  Bytes longer = file;
  longer.push_back(0);
  EXPECT_EQ(problem_of(longer), CheckpointProblem::trailing_bytes);
}

TEST_F(CheckpointFile, AnotherVersionIsRefusedNamingBothVersions) {
  Bytes file = encode_checkpoint(kPayload);
  file[8] = 1;  // the first format, before windows kept their shape
  const fs::path path = dir_ / "old.cwfckpt";
  overwrite(path, file);
  try {
    read_checkpoint_file(path);
    FAIL() << "a file of another version was read";
  } catch (const CheckpointFileError& e) {
    EXPECT_EQ(e.problem(), CheckpointProblem::incompatible_version);
    EXPECT_EQ(e.detail(), "written in format version 1, this build reads version 3");
    EXPECT_EQ(std::string(e.what()), "checkpoint file " + path.string() +
                                         ": incompatible version (written in format version 1, "
                                         "this build reads version 3)");
  }
}

TEST_F(CheckpointFile, ADamagedPayloadIsAChecksumMismatch) {
  Bytes file = encode_checkpoint(kPayload);
  file.back() ^= 0x01;
  try {
    verify_checkpoint(file, "state.cwfckpt");
    FAIL() << "a damaged payload was accepted";
  } catch (const CheckpointFileError& e) {
    EXPECT_STREQ(e.what(),
                 "checkpoint file state.cwfckpt: checksum mismatch (CRC-32 of the payload is "
                 "f3fd1086, the header says 84fa2010)");
  }
}

TEST_F(CheckpointFile, AFileThatIsNotACheckpointOrCannotBeReadIsNamed) {
  overwrite(dir_ / "notes.txt", Bytes{'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'});
  try {
    read_checkpoint_file(dir_ / "notes.txt");
    FAIL();
  } catch (const CheckpointFileError& e) {
    EXPECT_EQ(e.problem(), CheckpointProblem::not_a_checkpoint);
  }
  try {
    read_checkpoint_file(dir_ / "missing.cwfckpt");
    FAIL();
  } catch (const CheckpointFileError& e) {
    EXPECT_EQ(e.problem(), CheckpointProblem::unreadable);
    EXPECT_EQ(e.detail(), "open: No such file or directory");
  }
}

TEST_F(CheckpointFile, AFailedWriteLeavesNoTemporaryAndSaysSo) {
  try {
    write_checkpoint_file(dir_ / "no-such-folder" / "state.cwfckpt", kPayload);
    FAIL();
  } catch (const CheckpointFileError& e) {
    EXPECT_EQ(e.problem(), CheckpointProblem::unwritable);
    EXPECT_EQ(e.detail(), "create a temporary file: No such file or directory");
  }
  EXPECT_TRUE(files().empty());
}

TEST_F(CheckpointFile, TemporaryNamesAreRecognised) {
  EXPECT_TRUE(is_checkpoint_temporary("checkpoint-000001.cwfckpt.tmp-123-0"));
  EXPECT_FALSE(is_checkpoint_temporary("checkpoint-000001.cwfckpt"));
}

}  // namespace
}  // namespace cwf
