// workflows/linear_road.yaml used directly, as a newcomer does: checked and drawn without its
// data, its parameters set from the command line (mistaken settings reported first, relative
// paths where the user stands).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

namespace fs = std::filesystem;

const std::string kSource = CWF_SOURCE_DIR;

// Runs cwf with `dir` as the current directory.
ProcessResult run_cwf_in(const fs::path& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/bin/sh", "-c",         "cd \"$1\" && shift && exec \"$@\"",
                                   "sh",      dir.string(), CWF_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

TEST(FlagshipWorkflow, ValidateNeedsNoDataAndWarnsOfTheMissingInput) {
  ProcessResult result = run_cwf_in(kSource, {"validate", "workflows/linear_road.yaml"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out,
            "workflows/linear_road.yaml: ok (workflow 'linear-road', 6 actors, 1 sources, 6 "
            "connections, scheduled director)\n");
  EXPECT_EQ(result.err,
            "cwf: workflows/linear_road.yaml:16:41: warning: actor 'input' needs 'path' to run: "
            "cannot open 'workflows/input.dat': No such file or directory\n");
}

TEST(FlagshipWorkflow, GraphNeedsNoDataAndSaysNothingOfIt) {
  ProcessResult result = run_cwf_in(kSource, {"graph", "workflows/linear_road.yaml"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(result.out.rfind("digraph \"linear-road\" {", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("\"expenditures\" -> \"answers\""), std::string::npos) << result.out;
}

TEST(FlagshipWorkflow, ValidateAndGraphTakeSettings) {
  const std::string workflow = kSource + "/workflows/linear_road.yaml";
  fs::path here = fs::path(::testing::TempDir()) / ("cwf_flagship_" + std::to_string(::getpid()));
  fs::create_directories(here);
  // A setting replaces the file's value, relative to the current directory.
  ProcessResult result = run_cwf_in(here, {"validate", workflow, "--set", "input.path=in.dat",
                                           "--set", "expenditures.tolls=tolls.dat"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err,
            "cwf: " + workflow +
                ":16:3: warning: actor 'input' needs 'path' to run: cannot open 'in.dat': No such "
                "file or directory\n"
                "cwf: " +
                workflow +
                ":20:3: warning: actor 'expenditures' needs 'tolls' to run: no such file "
                "'tolls.dat'\n");
  std::ofstream(here / "in.dat") << "0,0,1,50,0,0,0,10,52800,-1,-1,-1,-1,-1,-1\n";
  std::ofstream(here / "tolls.dat") << "1,1,0,5\n";
  result = run_cwf_in(here, {"validate", workflow, "--set", "input.path=in.dat", "--set",
                             "expenditures.tolls=tolls.dat"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  result = run_cwf_in(here, {"graph", workflow, "--set", "input.batch=8"});
  EXPECT_EQ(result.status, 0) << result.err;
  result = run_cwf_in(here, {"graph", workflow, "--set", "input.bach=8"});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("--set input.bach: unknown parameter 'bach' for actor 'input' (type "
                            "lr_source); did you mean 'batch'?"),
            std::string::npos)
      << result.err;
  fs::remove_all(here);
}

// A setting naming no actor is the error, not the default input file it did not get to replace.
TEST(FlagshipWorkflow, AnUnknownActorInASettingIsReportedFirst) {
  for (const char* command : {"run", "validate", "graph"}) {
    ProcessResult result =
        run_cwf_in(kSource, {command, "workflows/linear_road.yaml", "--set", "inpt.path=/x"});
    EXPECT_EQ(result.status, 2) << command;
    EXPECT_EQ(result.err,
              "cwf: --set inpt.path: no actor 'inpt' in the workflow; did you mean 'input'?\n")
        << command;
  }
}

// Output named on the command line lands where the user stands, not beside the workflow file.
TEST(FlagshipWorkflow, ARelativeOutputPathIsRelativeToTheCurrentDirectory) {
  fs::path here =
      fs::path(::testing::TempDir()) / ("cwf_flagship_out_" + std::to_string(::getpid()));
  fs::create_directories(here);
  std::ofstream(here / "in.dat") << "0,0,1,50,0,0,0,10,52800,-1,-1,-1,-1,-1,-1\n";
  ProcessResult result =
      run_cwf_in(here, {"run", kSource + "/workflows/linear_road.yaml", "--set",
                        "input.path=in.dat", "--set", "answers.path=answers.out"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_file((here / "answers.out").string()), "0,1,0,0,0,0\n");
  EXPECT_FALSE(fs::exists(kSource + "/workflows/answers.out"));
  fs::remove_all(here);
}

}  // namespace
}  // namespace cwf::testing
