// `cwf lr validate` exit codes: 0 when every answer agrees, 1 when some do not (or lines are
// malformed), 2 for bad usage or files that cannot be read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/commands.hpp"

namespace cwf::cli {
namespace {

namespace fs = std::filesystem;

struct CommandResult {
  int status;
  std::string out, err;
};

CommandResult lr(const Words& words) {
  std::ostringstream out, err;
  int status = lr_command(words, out, err);
  return {status, out.str(), err.str()};
}

class LrValidateCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cwf-lr-validate-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    write("expected.out", "0,1,0,0,0,0\n3,300,300,200,55\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  CommandResult validate(const std::string& answers) {
    return lr({"validate", "--expected", dir_.string(), "--actual", write("actual.out", answers)});
  }
  fs::path dir_;
};

TEST_F(LrValidateCommand, AgreeingAnswersExitZero) {
  CommandResult run = validate("0,1,0,2,0,0\n3,300,305,200,55\n");
  EXPECT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("PASS"), std::string::npos);
}

TEST_F(LrValidateCommand, DifferencesExitOneAndShowBothSides) {
  CommandResult run = validate("0,1,0,2,0,4\n3,300,305,200,55\n");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("expected: 0,1,0,0,0,0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("actual:   0,1,0,2,0,4"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("FAIL"), std::string::npos);
}

TEST_F(LrValidateCommand, LateOrMalformedExitOne) {
  EXPECT_EQ(validate("0,1,0,6,0,0\n3,300,305,200,55\n").status, 1);
  CommandResult run = validate("0,1,0,2,0,0\n3,300,305,200,55\nbroken\n");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("actual.out:3"), std::string::npos) << run.out;
}

TEST_F(LrValidateCommand, BadUsageAndUnreadableFilesExitTwo) {
  EXPECT_EQ(lr({"validate"}).status, 2);
  EXPECT_EQ(lr({"validate", "--expected", dir_.string()}).status, 2);
  EXPECT_EQ(lr({"validate", "--expected", dir_.string(), "--actual", "x", "--show", "many"}).status,
            2);
  EXPECT_EQ(lr({"validate", "--expected", dir_.string(), "--atcual", "x"}).status, 2);
  CommandResult missing =
      lr({"validate", "--expected", dir_.string(), "--actual", (dir_ / "no-such-file").string()});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("no-such-file"), std::string::npos) << missing.err;
  CommandResult no_expected =
      lr({"validate", "--expected", (dir_ / "nowhere").string(), "--actual", "actual.out"});
  EXPECT_EQ(no_expected.status, 2);
}

}  // namespace
}  // namespace cwf::cli
