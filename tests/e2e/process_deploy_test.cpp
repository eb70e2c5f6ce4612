// Linear Road partitioned by expressway, run over 2 and 4 `cwf run --process K/N` processes by
// `cwf deploy` (its own nats-server on a loopback port), under every director: the answers are
// exactly the reference's (cwf lr validate), with the replicas in other processes than the
// source and the sinks, and with the sinks moved away from the source. A process that fails
// ends the deployment with exit 1 instead of leaving the others waiting for it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "actors/pubsub/nats_server_process.hpp"
#include "process.hpp"
#include "tests/required_dependency.hpp"

namespace cwf::testing {
namespace {

namespace fs = std::filesystem;

const std::string kPartitioned =
    std::string(CWF_SOURCE_DIR) + "/workflows/linear_road_partitioned.yaml";

class ProcessDeploy : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::path(::testing::TempDir()) /
                        ("cwf_process_deploy_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    ProcessResult generated = run_cwf({"lr", "generate", "--xways", "3", "--minutes", "3", "--seed",
                                       "11", "--out", dir_->string()});
    ASSERT_EQ(generated.status, 0) << generated.err;
    ProcessResult reference =
        run_cwf({"lr", "reference", "--input", path("input.dat"), "--out", path("expected.out")});
    ASSERT_EQ(reference.status, 0) << reference.err;
    // The shipped file with four replicas instead of two.
    std::string text = read_file(kPartitioned);
    std::size_t at = text.find("&replicas 2");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 11, "&replicas 4");
    std::ofstream(path("four_replicas.yaml")) << text;
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
  }
  void SetUp() override {
    CWF_REQUIRE_DEPENDENCY("nats-server", "nats-server",
                           !pubsub::NatsServerProcess::find_binary().empty());
  }
  static std::string path(const std::string& name) { return (*dir_ / name).string(); }

  // `cwf deploy` of `workflow` with the dataset's files; the answers go to `answers`.
  static ProcessResult deploy(const std::string& workflow, int processes,
                              const std::string& answers, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {
        "deploy",      workflow,
        "--processes", std::to_string(processes),
        "--set",       "input.path=" + path("input.dat"),
        "--set",       "expenditures.tolls=" + path("historical-tolls.dat"),
        "--set",       "answers.path=" + answers};
    args.insert(args.end(), more.begin(), more.end());
    return run_cwf(args);
  }
  static void expect_valid(const std::string& answers) {
    ProcessResult validated =
        run_cwf({"lr", "validate", "--expected", dir_->string(), "--actual", answers});
    EXPECT_EQ(validated.status, 0) << validated.out << validated.err;
    EXPECT_NE(validated.out.find("PASS"), std::string::npos) << validated.out;
  }

  static fs::path* dir_;
};

fs::path* ProcessDeploy::dir_ = nullptr;

class ProcessDeployEveryDirector : public ProcessDeploy,
                                   public ::testing::WithParamInterface<std::string> {};

TEST_P(ProcessDeployEveryDirector, TwoProcessesAnswerExactlyAsTheReference) {
  const std::string answers = path("two_" + director_label(GetParam()) + ".out");
  ProcessResult run = deploy(kPartitioned, 2, answers, director_args(GetParam()));
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.err.find("cwf deploy: 2 processes, exit statuses 0 0"), std::string::npos)
      << run.err;
  expect_valid(answers);
}

TEST_P(ProcessDeployEveryDirector, FourProcessesAnswerExactlyAsTheReference) {
  const std::string answers = path("four_" + director_label(GetParam()) + ".out");
  ProcessResult run = deploy(path("four_replicas.yaml"), 4, answers, director_args(GetParam()));
  ASSERT_EQ(run.status, 0) << run.err;
  expect_valid(answers);
}

INSTANTIATE_TEST_SUITE_P(EveryDirector, ProcessDeployEveryDirector,
                         ::testing::ValuesIn(kEveryDirector),
                         [](const auto& info) { return director_label(info.param); });

// The sinks in process 1, the source and replica 1 in process 0: links both ways, and a sink
// fed by every process.
TEST_F(ProcessDeploy, APlacementOnTheCommandLineMovesActorsAndTheAnswersStayExact) {
  const std::string answers = path("placed.out");
  ProcessResult run =
      deploy(kPartitioned, 2, answers,
             {"--place", "answers=1", "--place", "balances=1", "--place", "expenditures=1",
              "--place", "statistics[1]=0", "--place", "accidents[1]=0", "--stats"});
  ASSERT_EQ(run.status, 0) << run.err;
  // Process 1 runs the sinks and takes what process 0 sends them through one inlet each.
  EXPECT_NE(run.err.find("process 1: answers.in (from other processes)"), std::string::npos)
      << run.err;
  // tolls[1] stayed in process 1 and gets its input from accidents[1] in process 0.
  EXPECT_NE(run.err.find("process 0: tolls[1].in (to process 1)"), std::string::npos) << run.err;
  expect_valid(answers);
}

TEST_F(ProcessDeploy, AProcessThatFailsEndsTheDeploymentWithExit1) {
  // Process 0 cannot open the answers file: it fails at start, and process 1, which would wait
  // for its links for ever, is stopped.
  ProcessResult run = deploy(kPartitioned, 2, path("no/such/folder/answers.out"));
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_NE(run.err.find("cwf deploy: a process failed"), std::string::npos) << run.err;
}

TEST_F(ProcessDeploy, APlacementThatDoesNotFitIsAUsageError) {
  auto run = [](std::vector<std::string> options) {
    std::vector<std::string> args = {"run", kPartitioned, "--set",
                                     "input.path=" + path("input.dat")};
    args.insert(args.end(), options.begin(), options.end());
    return run_cwf(args);
  };
  ProcessResult unknown = run({"--process", "0/2", "--place", "answer=1"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("placement names 'answer', which is no actor of the workflow; did "
                             "you mean 'answers'?"),
            std::string::npos)
      << unknown.err;
  ProcessResult out_of_range = run({"--process", "0/2", "--place", "answers=2"});
  EXPECT_EQ(out_of_range.status, 2);
  EXPECT_NE(out_of_range.err.find("placement puts 'answers' in process 2, not one of 0..1"),
            std::string::npos)
      << out_of_range.err;
  ProcessResult bad_process = run({"--process", "2/2"});
  EXPECT_EQ(bad_process.status, 2);
  EXPECT_NE(bad_process.err.find("--process K/N needs 0 <= K < N (got '2/2')"), std::string::npos)
      << bad_process.err;
  ProcessResult without = run({"--place", "answers=1"});
  EXPECT_EQ(without.status, 2);
  EXPECT_NE(without.err.find("--place only applies with --process K/N"), std::string::npos)
      << without.err;
}

// Each process needs the files of its own actors only: process 1 runs the replicas, not the
// source, so it starts without the input (and, alone, reports the links nobody took); process 0
// runs the daily expenditures and needs their tolls file.
TEST_F(ProcessDeploy, AProcessNeedsTheFilesOfItsOwnActorsOnly) {
  ProcessResult replicas = run_cwf(
      {"run", kPartitioned, "--process", "1/2", "--set", "input.path=/no/such/input.dat", "--set",
       "expenditures.tolls=/no/such/tolls.dat", "--for", "1s", "--nats", "nats://127.0.0.1:1"});
  EXPECT_EQ(replicas.status, 3) << replicas.err;
  EXPECT_EQ(replicas.err.find("/no/such/"), std::string::npos) << replicas.err;
  EXPECT_NE(replicas.err.find("no process took the link to answers.in"), std::string::npos)
      << replicas.err;
  ProcessResult source =
      run_cwf({"run", kPartitioned, "--process", "0/2", "--set", "input.path=" + path("input.dat"),
               "--set", "expenditures.tolls=/no/such/tolls.dat"});
  EXPECT_EQ(source.status, 2) << source.err;
  EXPECT_NE(source.err.find("linear_road_partitioned.yaml:25:3: actor 'expenditures' needs 'tolls' "
                            "to run: no such file '/no/such/tolls.dat'"),
            std::string::npos)
      << source.err;
}

}  // namespace
}  // namespace cwf::testing
