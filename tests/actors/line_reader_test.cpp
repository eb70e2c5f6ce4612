#include "actors/line_reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "actor_test_util.hpp"
#include "tests/child_process.hpp"
#include "tests/required_dependency.hpp"

namespace cwf::actors {
namespace {

using testing::read_file;
using testing::write_file;

using Lines = std::vector<std::string>;

struct ReadResult {
  Lines lines;
  std::string error;
  bool compressed = false;
};

ReadResult read_all(const std::string& path) {
  LineReader reader;
  EXPECT_TRUE(reader.open(path)) << path;
  ReadResult result;
  result.compressed = reader.is_compressed();
  std::string_view line;
  while (reader.next(line)) {
    result.lines.emplace_back(line);
    EXPECT_EQ(reader.line_number(), result.lines.size());
  }
  result.error = reader.error();
  return result;
}

// The xz command (xz-utils) compresses the test files.
bool xz_installed() {
  static const bool installed = cwf::testing::run_process({"xz", "--version"}).status == 0;
  return installed;
}

// Compresses `path` with the xz command into `path`.xz, keeping the original.
std::string xz_compress(const std::string& path) {
  cwf::testing::ProcessResult xz = cwf::testing::run_process({"xz", "-k", "-f", "-9", path});
  EXPECT_EQ(xz.status, 0) << "xz -k -f -9 " << path << ": " << xz.err;
  return path + ".xz";
}

TEST(LineReader, XzFileReadsLikeThePlainFileIncludingALastLineWithoutNewline) {
  CWF_REQUIRE_DEPENDENCY("xz", "xz-utils", xz_installed());
  std::string content = "first\nsecond\r\n\nlast without newline";
  std::string plain = write_file("small.txt", content);
  std::string packed = xz_compress(plain);

  ReadResult a = read_all(plain), b = read_all(packed);
  Lines expected{"first", "second", "", "last without newline"};
  EXPECT_EQ(a.lines, expected);
  EXPECT_EQ(b.lines, expected);
  EXPECT_FALSE(a.compressed);
  EXPECT_TRUE(b.compressed);
  EXPECT_EQ(b.error, "");
}

TEST(LineReader, XzFileLargerThanTheBufferAndWithALineLongerThanIt) {
  CWF_REQUIRE_DEPENDENCY("xz", "xz-utils", xz_installed());
  std::string content;
  for (int i = 0; i < 200000; ++i)
    content += "line " + std::to_string(i) + ",0,1,2,3\n";
  content += std::string(LineReader::kBufferSize + 17, 'x') + "\n";
  content += "tail";
  std::string plain = write_file("large.txt", content);
  std::string packed = xz_compress(plain);

  ReadResult a = read_all(plain), b = read_all(packed);
  ASSERT_EQ(a.lines.size(), 200002u);
  EXPECT_EQ(a.lines[199999], "line 199999,0,1,2,3");
  EXPECT_EQ(a.lines[200000].size(), LineReader::kBufferSize + 17);
  EXPECT_TRUE(a.lines == b.lines);
  EXPECT_EQ(b.error, "");
}

TEST(LineReader, XzIsRecognisedByItsMagicWhateverTheName) {
  CWF_REQUIRE_DEPENDENCY("xz", "xz-utils", xz_installed());
  std::string plain = write_file("named.txt", "a\nb\n");
  std::string packed = xz_compress(plain);
  std::string renamed = write_file("renamed.dat", read_file(packed));
  ReadResult r = read_all(renamed);
  EXPECT_TRUE(r.compressed);
  EXPECT_EQ(r.lines, (Lines{"a", "b"}));
}

TEST(LineReader, CorruptXzDataIsAReadError) {
  CWF_REQUIRE_DEPENDENCY("xz", "xz-utils", xz_installed());
  std::string content;
  for (int i = 0; i < 1000; ++i)
    content += std::to_string(i * 7919) + "\n";
  std::string packed = read_file(xz_compress(write_file("corrupt.txt", content)));
  std::string damaged = packed;
  damaged[damaged.size() / 2] ^= 0x55;
  ReadResult r = read_all(write_file("damaged.xz", damaged));
  EXPECT_NE(r.error, "");

  ReadResult truncated = read_all(write_file("truncated.xz", packed.substr(0, packed.size() / 2)));
  EXPECT_NE(truncated.error, "");
}

TEST(LineReader, FileNamedXzThatIsNotXzIsAReadError) {
  ReadResult r = read_all(write_file("plain.xz", "not compressed\n"));
  EXPECT_TRUE(r.lines.empty());
  EXPECT_EQ(r.error, "xz: not in the .xz format");
}

}  // namespace
}  // namespace cwf::actors
