// `cwf run`'s checkpoint options as a user meets them: a workflow that cannot be checkpointed is
// refused naming its actors, options that make no sense are usage errors, a damaged checkpoint
// or one of another workflow is passed over for the one before, and a folder without any
// checkpoint starts the run from the beginning.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "process.hpp"
#include "tests/runtime/scratch_folder_test_base.hpp"

namespace cwf::testing {
namespace {

namespace fs = std::filesystem;

const std::string kExamples = std::string(CWF_SOURCE_DIR) + "/workflows/examples/";

class CheckpointOptions : public ScratchFolderTest {
 protected:
  CheckpointOptions() : ScratchFolderTest("cwf-checkpoint-options") {}

  // The sensor example writing into the scratch folder.
  std::vector<std::string> sensors(std::vector<std::string> more = {}) const {
    std::vector<std::string> args = {
        "run",   kExamples + "checkpoints/sensor_windows.yaml",
        "--set", "averages.path=" + (dir_ / "averages.jsonl").string(),
        "--set", "peaks.path=" + (dir_ / "peaks.csv").string(),
        "--set", "counts.path=" + (dir_ / "counts.jsonl").string(),
        "--set", "followups.path=" + (dir_ / "followups.jsonl").string()};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }
  std::string checkpoints() const { return (dir_ / "checkpoints").string(); }
  // Each output's lines, sorted: group-by windows fire in an order that depends on how events
  // were drained.
  std::vector<std::vector<std::string>> outputs() const {
    std::vector<std::vector<std::string>> all;
    for (const char* name : {"averages.jsonl", "peaks.csv", "counts.jsonl", "followups.jsonl"}) {
      all.push_back(lines_of(read_file((dir_ / name).string())));
      std::sort(all.back().begin(), all.back().end());
    }
    return all;
  }
};

TEST_F(CheckpointOptions, AWorkflowWithAnActorThatCannotBeCheckpointedIsRefusedNamingIt) {
  // A plain NATS subscription: what the server sent before a crash is gone (no JetStream).
  ProcessResult result =
      run_cwf({"run", kExamples + "nats/consumer.yaml", "--checkpoint-dir", checkpoints()});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("this workflow cannot be checkpointed: actor orders (nats_subscribe, "),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("consumer.yaml:9)"), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(checkpoints())) << "nothing is written for a refused workflow";
}

TEST_F(CheckpointOptions, AnActorInsideASubWorkflowIsNamedThroughIt) {
  std::ofstream(dir_ / "stage.yaml") << R"(name: stage
inputs: [steps]
actors:
  keep:     {type: filter, where: "true"}
  dispatch: {type: nats_dispatch, instance: /order, dispatch_group: orders}
connections:
  - steps -> keep
  - keep -> dispatch
)";
  std::ofstream(dir_ / "outer.yaml") << R"(name: outer
actors:
  numbers: {type: generator, count: 3, value: "{order: i}"}
  stage:   {workflow: stage.yaml}
connections:
  - numbers -> stage
)";
  ProcessResult result =
      run_cwf({"run", (dir_ / "outer.yaml").string(), "--checkpoint-dir", checkpoints()});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("actor stage/dispatch (nats_dispatch, "), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("stage.yaml:5)"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("stage/keep"), std::string::npos) << result.err;
}

TEST_F(CheckpointOptions, OptionsThatMakeNoSenseAreUsageErrors) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--checkpoint-every", "1s"}, "--checkpoint-every only applies with --checkpoint-dir"},
      {{"--checkpoint-dir", checkpoints(), "--checkpoint-every", "0s"},
       "--checkpoint-every expects a positive duration"},
      {{"--checkpoint-dir", checkpoints(), "--checkpoint-keep", "0"},
       "--checkpoint-keep must be a whole number of at least 1"},
      {{"--resume", (dir_ / "missing").string()}, "--resume: no folder"},
      {{"--resume", dir_.string(), "--checkpoint-dir", checkpoints()}, "names another folder"},
  };
  for (const auto& [options, message] : cases) {
    ProcessResult result = run_cwf(sensors(options));
    EXPECT_EQ(result.status, 2) << message;
    EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
  }
}

TEST_F(CheckpointOptions, AFolderWithoutCheckpointsStartsTheRunFromTheBeginning) {
  ProcessResult plain = run_cwf(sensors());
  ASSERT_EQ(plain.status, 0) << plain.err;
  auto expected = outputs();
  fs::create_directories(checkpoints());
  ProcessResult resumed = run_cwf(sensors({"--resume", checkpoints()}));
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(
      resumed.err.find("no checkpoint in " + checkpoints() + " yet: starting from the beginning"),
      std::string::npos)
      << resumed.err;
  EXPECT_EQ(outputs(), expected);
}

TEST_F(CheckpointOptions, ADamagedCheckpointIsPassedOverForTheOneBefore) {
  ProcessResult plain = run_cwf(sensors());
  ASSERT_EQ(plain.status, 0) << plain.err;
  auto expected = outputs();
  // Checkpoints after every source firing, all kept.
  ProcessResult first =
      run_cwf(sensors({"--set", "readings.batch=1", "--checkpoint-dir", checkpoints(),
                       "--checkpoint-every", "1ns", "--checkpoint-keep", "1000"}));
  ASSERT_EQ(first.status, 0) << first.err;
  std::vector<std::string> names = files(checkpoints());
  ASSERT_GE(names.size(), 3u) << first.err;
  // The newest one loses a byte: the run names it and resumes from the one before, which ends
  // with the same output.
  fs::path newest = fs::path(checkpoints()) / names.back();
  Bytes bytes = contents(newest);
  bytes[bytes.size() / 2] ^= 0x40;
  overwrite(newest, bytes);
  ProcessResult resumed =
      run_cwf(sensors({"--set", "readings.batch=1", "--resume", checkpoints()}));
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("is corrupt (checksum mismatch)"), std::string::npos) << resumed.err;
  EXPECT_NE(resumed.err.find("resuming from checkpoint"), std::string::npos) << resumed.err;
  EXPECT_EQ(outputs(), expected);
}

TEST_F(CheckpointOptions, ACheckpointOfAnotherWorkflowIsRefusedNamingTheDifference) {
  ProcessResult first = run_cwf(sensors({"--set", "readings.batch=1", "--checkpoint-dir",
                                         checkpoints(), "--checkpoint-every", "1ns"}));
  ASSERT_EQ(first.status, 0) << first.err;
  // hot_readings_per_minute has other actors: no checkpoint of the sensors fits it, and nothing
  // is run.
  ProcessResult other =
      run_cwf({"run", kExamples + "hot_readings_per_minute.yaml", "--set",
               "out.path=" + (dir_ / "hot.csv").string(), "--resume", checkpoints()});
  EXPECT_EQ(other.status, 1) << other.err;
  EXPECT_NE(other.err.find("cannot be resumed from"), std::string::npos) << other.err;
  EXPECT_NE(other.err.find("is 'readings' (jsonl_source) in the checkpoint and 'readings' "
                           "(csv_source) in this workflow"),
            std::string::npos)
      << other.err;
  EXPECT_NE(other.err.find("can be resumed from (see above); nothing was run"), std::string::npos)
      << other.err;
}

}  // namespace
}  // namespace cwf::testing
