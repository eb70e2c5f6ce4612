// The main job (`make run`) as a user runs it, as real processes: cwf lr generate, reference, run
// and validate, on a dataset small enough to be quick (one expressway, two minutes). Every step
// exits 0 and the validation passes; a single tampered answer fails the validation, which shows
// that answer next to the expected one.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "process.hpp"

namespace cwf::testing {
namespace {

namespace fs = std::filesystem;

class LrPipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("cwf_lr_pipeline_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

// The first line of `text` that starts with `prefix`, without its line end; empty if none.
std::string first_line_starting(const std::string& text, const std::string& prefix) {
  for (const std::string& line : lines_of(text))
    if (line.rfind(prefix, 0) == 0) return line;
  return "";
}

TEST_F(LrPipeline, GenerateReferenceRunValidate) {
  ProcessResult generated = run_cwf(
      {"lr", "generate", "--xways", "1", "--minutes", "2", "--seed", "1", "--out", dir_.string()});
  ASSERT_EQ(generated.status, 0) << generated.err;
  ASSERT_TRUE(fs::exists(path("input.dat")));
  ASSERT_TRUE(fs::exists(path("historical-tolls.dat")));

  ProcessResult reference =
      run_cwf({"lr", "reference", "--input", path("input.dat"), "--out", path("expected.out")});
  ASSERT_EQ(reference.status, 0) << reference.err;
  EXPECT_NE(reference.out.find("malformed lines: 0\n"), std::string::npos) << reference.out;

  ProcessResult run =
      run_cwf({"lr", "run", "--input", path("input.dat"), "--out", path("answers.out")});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("malformed lines: 0\n"), std::string::npos) << run.out;

  // The same answers as the reference (emit aside), line counts included.
  std::string expected = read_file(path("expected.out"));
  std::string answers = read_file(path("answers.out"));
  EXPECT_EQ(lines_of(answers).size(), lines_of(expected).size());
  ASSERT_FALSE(first_line_starting(expected, "0,").empty());

  ProcessResult validated =
      run_cwf({"lr", "validate", "--expected", dir_.string(), "--actual", path("answers.out")});
  EXPECT_EQ(validated.status, 0) << validated.out << validated.err;
  EXPECT_NE(validated.out.find("\nPASS\n"), std::string::npos) << validated.out;

  // One toll notification changed (`0,carid,time,emit,lav,toll`: toll + 1) fails the validation,
  // which shows both sides of that answer.
  std::string original = first_line_starting(answers, "0,");
  std::string tampered = original.substr(0, original.rfind(',') + 1) +
                         std::to_string(std::stoi(original.substr(original.rfind(',') + 1)) + 1);
  std::string text = answers;
  text.replace(text.find(original + "\n"), original.size(), tampered);
  std::ofstream(path("tampered.out")) << text;
  ProcessResult failed =
      run_cwf({"lr", "validate", "--expected", dir_.string(), "--actual", path("tampered.out")});
  EXPECT_NE(failed.status, 0);
  EXPECT_NE(failed.status, 2) << "a wrong answer is not a usage error: " << failed.err;
  EXPECT_NE(failed.out.find("\nFAIL"), std::string::npos) << failed.out;
  EXPECT_NE(failed.out.find("type 0 (toll notification), wrong: 1, all 1\n"), std::string::npos)
      << failed.out;
  EXPECT_NE(failed.out.find("  actual:   " + tampered + "\n"), std::string::npos) << failed.out;
}

// A position report with speed -2 is kept (its car is notified on entering the segment) and
// reported as a warning, on standard error and in the counts; warnings leave the exit status 0.
TEST_F(LrPipeline, ASpeedOutOfRangeIsAWarningThatKeepsTheReport) {
  fs::create_directories(dir_);
  std::ofstream(path("input.dat")) << "0,0,1,50,0,0,0,10,52800,-1,-1,-1,-1,-1,-1\n"
                                      "0,0,2,-2,0,0,0,10,52900,-1,-1,-1,-1,-1,-1\n";
  const std::string warning =
      path("input.dat") +
      ":2: speed -2 of the position report of car 2 at time 0 is outside 0..100: the report is "
      "kept, its speed is left out of the segment statistics\n";
  const std::string counted =
      "position reports kept without their speed (outside 0..100, left out of the statistics; "
      "warnings): 1\n";

  ProcessResult reference =
      run_cwf({"lr", "reference", "--input", path("input.dat"), "--out", path("expected.out")});
  EXPECT_EQ(reference.status, 0) << reference.err;
  EXPECT_NE(reference.err.find("cwf lr reference: warning: " + warning), std::string::npos)
      << reference.err;
  EXPECT_NE(reference.out.find(counted), std::string::npos) << reference.out;
  EXPECT_EQ(read_file(path("expected.out")), "0,1,0,0,0,0\n0,2,0,0,0,0\n");

  ProcessResult run =
      run_cwf({"lr", "run", "--input", path("input.dat"), "--out", path("answers.out")});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.err.find("actor 'input' (lr_source) warning: " + warning), std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find(counted), std::string::npos) << run.out;
  EXPECT_EQ(lines_of(read_file(path("answers.out"))).size(), 2u);

  ProcessResult validated =
      run_cwf({"lr", "validate", "--expected", dir_.string(), "--actual", path("answers.out")});
  EXPECT_EQ(validated.status, 0) << validated.out;
}

// A line that cannot be used (a position outside the expressway) leaves answers out: both
// implementations say which line and exit with status 3.
TEST_F(LrPipeline, ARejectedLineMakesTheRunIncomplete) {
  fs::create_directories(dir_);
  std::ofstream(path("input.dat")) << "0,0,1,50,0,0,0,10,52800,-1,-1,-1,-1,-1,-1\n"
                                      "0,0,2,50,0,0,0,10,600000,-1,-1,-1,-1,-1,-1\n";
  ProcessResult reference =
      run_cwf({"lr", "reference", "--input", path("input.dat"), "--out", path("expected.out")});
  EXPECT_EQ(reference.status, 3) << reference.err;
  EXPECT_NE(reference.err.find("cwf lr reference: 1 input line(s) rejected and 0 skipped as out "
                               "of time order"),
            std::string::npos)
      << reference.err;
  ProcessResult run =
      run_cwf({"lr", "run", "--input", path("input.dat"), "--out", path("answers.out")});
  EXPECT_EQ(run.status, 3) << run.err;
  EXPECT_NE(
      run.err.find("actor 'input' (lr_source) rejected an event: " + path("input.dat") + ":2: "),
      std::string::npos)
      << run.err;
  run = run_cwf({"lr", "run", "--input", path("input.dat"), "--out", path("answers.out"),
                 "--max-errors", "1"});
  EXPECT_EQ(run.status, 0) << run.err;
}

}  // namespace
}  // namespace cwf::testing
