// `cwf lr rate` in-process: a short paced rating at small L that validates and reports a rating,
// the as-fast-as-possible comparison with the reference, and argument checking.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <unistd.h>

#include "cli/commands.hpp"

namespace cwf::cli {
namespace {

int lr(const Words& args, std::string& out, std::string& err) {
  std::ostringstream o, e;
  const int code = lr_command(args, o, e);
  out = o.str();
  err = e.str();
  return code;
}

// Paced runs use compression 60 (a 5 s limit is 83 ms of wall time): tighter limits make the
// verdict depend on the machine's load rather than on the workflow.
// A 4-minute generated dataset, made once for the suite.
// This process's own scratch directory (ctest runs the test cases as parallel processes).
std::filesystem::path scratch() {
  return std::filesystem::temp_directory_path() /
         ("cwf_lr_rate_command_" + std::to_string(::getpid()));
}

const std::string& dataset() {
  static const std::string dir = [] {
    auto path = scratch() / "data";
    std::filesystem::remove_all(path.parent_path());
    std::string out, err;
    EXPECT_EQ(lr({"generate", "--out", path.string(), "--minutes", "4", "--seed", "3"}, out, err),
              0)
        << err;
    return path.string();
  }();
  return dir;
}

const std::string kWorkflow = CWF_SOURCE_DIR "/workflows/linear_road.yaml";

TEST(LrRateCommand, PacedRunAtSmallLValidatesAndRates) {
  std::string out, err;
  const auto answers = scratch() / "answers";
  ASSERT_EQ(lr({"rate", "--input", dataset(), "--xways", "1,2", "--compression", "60", "--minutes",
                "2", "--progress", "0.2", "--answers", answers.string(), "--workflow", kWorkflow},
               out, err),
            0)
      << err << out;
  EXPECT_NE(out.find("L = 1: "), std::string::npos) << out;
  EXPECT_NE(out.find("L = 2: "), std::string::npos) << out;
  EXPECT_NE(out.find("validation: the reference's answers exactly"), std::string::npos) << out;
  EXPECT_NE(out.find("cwf lr validate (exact): PASS"), std::string::npos) << out;
  EXPECT_NE(out.find("0 toll notifications"), std::string::npos) << out;
  EXPECT_NE(out.find("L-rating: 2 (compression 60.000"), std::string::npos) << out;
  EXPECT_NE(out.find("per-actor statistics of the rated run (L = 2)"), std::string::npos) << out;
  EXPECT_TRUE(std::filesystem::exists(answers / "L2" / "expected.out"));
  EXPECT_NE(err.find("L = 1, minute "), std::string::npos) << err;  // progress
}

TEST(LrRateCommand, SearchStopsAtTheLimit) {
  std::string out, err;
  ASSERT_EQ(lr({"rate", "--input", dataset() + "/input.dat", "--max-xways", "2", "--minutes", "1",
                "--compression", "60", "--workflow", kWorkflow},
               out, err),
            0)
      << err << out;
  EXPECT_NE(out.find("in the first 1 minutes"), std::string::npos) << out;
  EXPECT_NE(out.find("L-rating: 2"), std::string::npos) << out;
  // A rating is long: the first thing said is how it proceeds, then how long one L replays.
  EXPECT_EQ(err.rfind("cwf lr rate: this takes a while: every L tried replays the input at "
                      "compression 60.000, then runs the reference over it; L doubles from 1 "
                      "while it passes (up to 2), then bisects. Progress goes here every 5 s; "
                      "reading the input first.\n"
                      "cwf lr rate: the input spans 59 s of data: about 1 s of replay per L "
                      "tried\n",
                      0),
            0u)
      << err;
}

TEST(LrRateCommand, AsFastAsPossiblePrintsBothThroughputs) {
  std::string out, err;
  ASSERT_EQ(lr({"rate", "--input", dataset(), "--afap", "--xways", "3", "--workflow", kWorkflow},
               out, err),
            0)
      << err << out;
  EXPECT_NE(out.find("as fast as possible"), std::string::npos) << out;
  EXPECT_NE(out.find("L = 3: "), std::string::npos) << out;
  EXPECT_NE(out.find(" tuples/s; reference "), std::string::npos) << out;
  EXPECT_NE(out.find("workflow / reference = "), std::string::npos) << out;
  EXPECT_NE(out.find("validation: PASS"), std::string::npos) << out;
}

TEST(LrRateCommand, RejectsBadArgumentsWithStatus2AndAReason) {
  std::string out, err;
  EXPECT_EQ(lr({"rate"}, out, err), 2);
  EXPECT_NE(err.find("--input FILE|DIR is required"), std::string::npos) << err;
  EXPECT_EQ(lr({"rate", "--input", "/nonexistent/x.dat"}, out, err), 2);
  EXPECT_NE(err.find("no such file or directory"), std::string::npos) << err;
  EXPECT_EQ(lr({"rate", "--input", dataset(), "--xways", "1,0"}, out, err), 2);
  EXPECT_NE(err.find("--xways expects a whole number from 1"), std::string::npos) << err;
  EXPECT_EQ(lr({"rate", "--input", dataset(), "--compression", "fast"}, out, err), 2);
  EXPECT_NE(err.find("--compression expects a number"), std::string::npos) << err;
  EXPECT_EQ(lr({"rate", "--input", dataset(), "--afap", "--compression", "5"}, out, err), 2);
  EXPECT_NE(err.find("takes no --compression"), std::string::npos) << err;
  EXPECT_EQ(lr({"rate", "--input", dataset(), "--xways", "2", "--max-xways", "4"}, out, err), 2);
  EXPECT_NE(err.find("not both"), std::string::npos) << err;
  EXPECT_EQ(lr({"rate", "--input", dataset(), "--xway", "2"}, out, err), 2);
  EXPECT_NE(err.find("did you mean --xways"), std::string::npos) << err;
  EXPECT_EQ(lr({"rate", "--input", scratch().string()}, out, err), 2);
  EXPECT_NE(err.find("holds no input.dat"), std::string::npos) << err;
}

}  // namespace
}  // namespace cwf::cli
