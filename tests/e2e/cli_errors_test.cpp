// Mistakes a user can make on the command line or in a file, each answered with one clear line.
#include <gtest/gtest.h>

#include <fstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kSquares = std::string(CWF_SOURCE_DIR) + "/workflows/examples/squares.yaml";

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(CliErrors, MalformedNumbersAndInconsistentOptions) {
  ProcessResult result = run_cwf({"run", kSquares, "--workers", "9x"});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err, "cwf run: --workers expects a number (got '9x')\n");
  result = run_cwf({"run", kSquares, "--clock", "scaled", "--speed", "fast"});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err, "cwf run: --speed expects a number (got 'fast')\n");
  result = run_cwf({"run", kSquares, "--speed", "10"});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err, "cwf run: --speed needs --clock scaled\n");
}

TEST(CliErrors, AWorkflowWithoutActors) {
  std::string path =
      write_temp("no_actors.yaml", "name: nothing\nactor:\n  g: {type: generator}\n");
  ProcessResult result = run_cwf({"validate", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("unknown key 'actor'"), std::string::npos) << result.err;
  path = write_temp("empty.yaml", "name: nothing\n");
  result = run_cwf({"validate", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err,
            "cwf: " + path + ":1:1: the workflow has no actors (expected an 'actors' map)\n");
}

TEST(CliErrors, AConnectionMadeTwice) {
  std::string path = write_temp("twice.yaml",
                                "actors:\n"
                                "  g: {type: generator, count: 3}\n"
                                "  o: {type: stdout}\n"
                                "connections:\n"
                                "  - g -> o\n"
                                "  - g.out -> o.in\n");
  ProcessResult result = run_cwf({"validate", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find(":6:"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("'g' is connected to 'o' twice"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace cwf::testing
