// `cwf lr generate` in-process: argument checking and the files it writes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/commands.hpp"

namespace cwf::cli {
namespace {

int generate(const Words& args, std::string& out, std::string& err) {
  std::ostringstream o, e;
  const int code = lr_command(
      [&] {
        Words words{"generate"};
        words.insert(words.end(), args.begin(), args.end());
        return words;
      }(),
      o, e);
  out = o.str();
  err = e.str();
  return code;
}

TEST(LrGenerateCommand, RejectsBadArgumentsWithStatus2AndAReason) {
  std::string out, err;
  EXPECT_EQ(generate({"--xways", "1"}, out, err), 2);
  EXPECT_NE(err.find("--out DIR is required"), std::string::npos) << err;
  EXPECT_EQ(generate({"--out", "x", "--xways", "0"}, out, err), 2);
  EXPECT_NE(err.find("--xways expects a whole number from 1 to 1000 (got '0')"), std::string::npos)
      << err;
  EXPECT_EQ(generate({"--out", "x", "--minutes", "5m"}, out, err), 2);
  EXPECT_NE(err.find("--minutes"), std::string::npos) << err;
  EXPECT_EQ(generate({"--out", "x", "--seed", "-1"}, out, err), 2);
  EXPECT_EQ(generate({"--out", "x", "--minuts", "5"}, out, err), 2);
  EXPECT_NE(err.find("did you mean --minutes"), std::string::npos) << err;
}

TEST(LrGenerateCommand, CreatesTheDirectoryAndWritesTheDataset) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("cwf_lr_generate_command_" + std::to_string(::getpid())) / "new";
  std::filesystem::remove_all(dir.parent_path());
  std::string out, err;
  ASSERT_EQ(generate({"--out", dir.string(), "--minutes", "3", "--seed", "9"}, out, err), 0) << err;
  EXPECT_TRUE(std::filesystem::file_size(dir / "input.dat") > 0);
  EXPECT_TRUE(std::filesystem::file_size(dir / "historical-tolls.dat") > 0);
  std::ifstream readme(dir / "README");
  std::stringstream text;
  text << readme.rdbuf();
  EXPECT_NE(text.str().find("--xways 1 --minutes 3 --seed 9"), std::string::npos) << text.str();
  EXPECT_NE(out.find("type 0 position reports"), std::string::npos) << out;
  std::filesystem::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace cwf::cli
