// The other subcommands and the exit-status contract of `cwf`.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kExamples = std::string(CWF_SOURCE_DIR) + "/workflows/examples/";

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Commands, ValidateAcceptsEveryShippedExample) {
  // The top folder and patterns/; sub-workflow files (stages/) are not whole workflows.
  std::vector<std::filesystem::directory_entry> files;
  for (const std::string& dir : {kExamples, kExamples + "patterns/"})
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      files.push_back(entry);
  for (const auto& entry : files) {
    if (entry.path().extension() != ".yaml") continue;
    ProcessResult result = run_cwf({"validate", entry.path().string()});
    EXPECT_EQ(result.status, 0) << entry.path() << ": " << result.err;
    EXPECT_NE(result.out.find(": ok"), std::string::npos);
  }
}

TEST(Commands, ALoadErrorIsOneLineWithFileLineAndColumnAndExitsTwo) {
  std::string path = write_temp("typo.yaml",
                                "name: typo\n"
                                "actors:\n"
                                "  gen: {type: generater, count: 3}\n");
  ProcessResult result = run_cwf({"validate", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(
      result.err,
      "cwf: " + path +
          ":3:15: unknown actor type 'generater' for actor 'gen'; did you mean 'generator'?\n");
  result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find(":3:15:"), std::string::npos);
}

TEST(Commands, UsageErrorsExitTwoWithAReason) {
  EXPECT_EQ(run_cwf({"frobnicate"}).status, 2);
  EXPECT_NE(run_cwf({"rnu"}).err.find("did you mean 'run'"), std::string::npos);
  ProcessResult result = run_cwf({"run", kExamples + "squares.yaml", "--fro", "1s"});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("did you mean --for"), std::string::npos) << result.err;
  result = run_cwf({"run", kExamples + "squares.yaml", "--director", "magic"});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("unknown director type 'magic'"), std::string::npos) << result.err;
  EXPECT_EQ(run_cwf({"run", "/nonexistent.yaml"}).status, 2);
}

TEST(Commands, GraphDrawsActorsConnectionsAndSubWorkflows) {
  ProcessResult result = run_cwf({"graph", kExamples + "squares.yaml"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out.rfind("digraph \"squares\" {", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("subgraph \"cluster_stage\""), std::string::npos);
  EXPECT_NE(result.out.find("\"numbers\" -> \"stage/numbers\""), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\"stage/square\" -> \"stage/squares\""), std::string::npos);
  EXPECT_NE(result.out.find("\"stage/squares\" -> \"out\""), std::string::npos);
}

TEST(Commands, GraphDrawsReplicasInAClusterAndLabelsThePartitionedEdges) {
  std::string path = write_temp("replicas.yaml",
                                "name: replicas\n"
                                "actors:\n"
                                "  gen: {type: generator, count: 3}\n"
                                "  square: {type: map, expression: / * /, parallelism: 2}\n"
                                "  out: {type: stdout}\n"
                                "connections:\n"
                                "  - {from: gen, to: square, partition_by: /}\n"
                                "  - square -> out\n");
  ProcessResult result = run_cwf({"graph", path});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("subgraph \"cluster_square\" {\n    label=\"square x2\";\n"
                            "    style=dashed;\n"
                            "    \"square[0]\" [shape=box, label=\"square[0]\\nmap\"];\n"
                            "    \"square[1]\" [shape=box, label=\"square[1]\\nmap\"];\n  }\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("\"gen\" -> \"square[0]\" [label=\"partition_by /: 1 of 2\"]"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("\"gen\" -> \"square[1]\" [label=\"partition_by /: 2 of 2\"]"),
            std::string::npos);
  EXPECT_EQ(result.out.find("partition("), std::string::npos);
  EXPECT_NE(result.out.find("\"square[0]\" -> \"out\""), std::string::npos);
  // And it runs: every square once.
  result = run_cwf({"run", path});
  EXPECT_EQ(result.status, 0) << result.err;
  std::string out = result.out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 3);
}

TEST(Commands, GraphLabelsWindowedConnections) {
  ProcessResult result = run_cwf({"graph", kExamples + "patterns/figure9_two_within_5min.yaml"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("\"events\" -> \"a\" [label=\"out\\nwindow(size: 5 min, step: 1 min, "
                            "delete_used, suppress_empty)\"];"),
            std::string::npos)
      << result.out;
}

// A window belongs to the port: declared by one connection, it labels every edge into the port,
// and its expired route is drawn once.
TEST(Commands, GraphLabelsEveryConnectionIntoAWindowedPort) {
  std::string path =
      write_temp("shared_window.yaml",
                 "name: shared\n"
                 "actors:\n"
                 "  a: {type: generator, count: 3, value: i}\n"
                 "  b: {type: generator, count: 3, value: i}\n"
                 "  sum: {type: aggregate, function: count}\n"
                 "  log: {type: stdout}\n"
                 "connections:\n"
                 "  - {from: a, to: sum, window: {size: 2 tokens, expired_to: log}}\n"
                 "  - b -> sum\n");
  ProcessResult result = run_cwf({"graph", path});
  ASSERT_EQ(result.status, 0) << result.err;
  for (const char* edge : {"  \"a\" -> \"sum\" [label=\"window(size: 2 tokens)\"];\n",
                           "  \"b\" -> \"sum\" [label=\"window(size: 2 tokens)\"];\n"})
    EXPECT_NE(result.out.find(edge), std::string::npos) << edge << result.out;
  const std::string expired = "\"sum\" -> \"log\" [style=dashed, label=\"expired\"];";
  std::size_t first = result.out.find(expired);
  ASSERT_NE(first, std::string::npos) << result.out;
  EXPECT_EQ(result.out.find(expired, first + 1), std::string::npos) << result.out;
}

// Events expiring from a window (expired_to) leave from the window's port: a dashed edge, told
// apart from the actor's own output.
TEST(Commands, GraphDrawsExpiredEventsAsADashedEdge) {
  ProcessResult result = run_cwf({"graph", kExamples + "patterns/cwp6_expiration.yaml"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("  \"sample\" -> \"skipped\" [style=dashed, label=\"expired\"];\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("  \"skipped\" -> \"out\";\n"), std::string::npos) << result.out;
}

// --line-buffered changes when the lines are written, not what they are.
TEST(Commands, RunLineBufferedWritesTheSameLines) {
  ProcessResult plain = run_cwf({"run", kExamples + "squares.yaml"});
  ProcessResult lines = run_cwf({"run", kExamples + "squares.yaml", "--line-buffered"});
  ASSERT_EQ(lines.status, 0) << lines.err;
  EXPECT_EQ(lines.out, plain.out);
  EXPECT_EQ(lines.out, read_file(kExamples + "expected/squares.out"));
}

TEST(Commands, ActorsListsEveryTypeWithPortsAndParameters) {
  ProcessResult result = run_cwf({"actors"});
  ASSERT_EQ(result.status, 0);
  for (const char* type : {"csv_source", "jsonl_source", "generator", "filter", "map", "split",
                           "merge", "counter", "tap", "csv_sink", "jsonl_sink", "stdout"})
    EXPECT_NE(result.out.find(std::string(type) + " — "), std::string::npos) << type;
  EXPECT_NE(result.out.find("where (expression, required, changeable while it runs)"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("fifo — "), std::string::npos);
}

}  // namespace
}  // namespace cwf::testing
