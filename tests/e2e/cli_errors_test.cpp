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

// A workflow_view source takes its events from a workflow hosted by cwf serve: cwf run has none.
TEST(CliErrors, AViewOfAnotherWorkflowNeedsTheServer) {
  std::string path = write_temp("viewer.yaml",
                                "name: viewer\nactors:\n"
                                "  seen: {type: workflow_view, of: numbers, from: n, to: out}\n"
                                "  o: {type: stdout}\nconnections:\n  - seen -> o\n");
  ProcessResult result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.err.find("workflow_view shows what flows in a workflow hosted by `cwf serve` "
                            "('numbers'), and there is none here"),
            std::string::npos)
      << result.err;
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

// Director keys that would be ignored, and policy parameters, are checked at load time and
// reported at their line and column.
TEST(CliErrors, DirectorKeysAndPolicyParametersAreCheckedWhereTheyAreWritten) {
  auto workflow_with = [](const std::string& name, const std::string& director) {
    return write_temp(name, "director: " + director +
                                "\n"
                                "actors:\n"
                                "  g: {type: generator, count: 3}\n"
                                "  o: {type: stdout}\n"
                                "connections:\n"
                                "  - g -> o\n");
  };
  std::string path =
      workflow_with("threaded_qbs.yaml", "{type: threaded, scheduler: qbs, workers: 4}");
  ProcessResult result = run_cwf({"validate", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err, "cwf: " + path +
                            ":1:28: 'scheduler' applies to the scheduled director (its policy, "
                            "workers and their parameters); the threaded director runs one thread "
                            "per actor and takes none\n");
  path = workflow_with("fifo_all.yaml", "{type: scheduled, scheduler: fifo, batch: all}");
  result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out, "0\n1\n2\n");
  path = workflow_with("fifo_some.yaml", "{scheduler: fifo, batch: some}");
  result = run_cwf({"validate", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err, "cwf: " + path +
                            ":1:36: fifo scheduler: 'batch' must be a positive int or all (windows "
                            "an actor may fire on per turn), got \"some\"\n");
  path = workflow_with("qbs_typo.yaml", "{scheduler: qbs, basic_quantum: 100}");
  result = run_cwf({"validate", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find(path + ":1:43: the qbs scheduler has no parameter 'basic_quantum'"),
            std::string::npos)
      << result.err;
}

}  // namespace
}  // namespace cwf::testing
