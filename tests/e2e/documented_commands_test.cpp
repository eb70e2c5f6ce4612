// The Linear Road commands the documentation shows, run exactly as written (the code block read
// from the doc), from a folder laid out like the repository's: they exit 0 and the validation at
// their end passes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "process.hpp"

namespace cwf::testing {
namespace {

namespace fs = std::filesystem;

// The fenced code block of `doc` that contains `marker`, without its fences.
std::string code_block_with(const std::string& doc, const std::string& marker) {
  std::string text = read_file(std::string(CWF_SOURCE_DIR) + "/docs/" + doc);
  std::size_t at = text.find(marker);
  if (at == std::string::npos) return "";
  std::size_t open = text.rfind("```\n", at);
  std::size_t close = text.find("```", at);
  if (open == std::string::npos || close == std::string::npos) return "";
  return text.substr(open + 4, close - open - 4);
}

// Runs `block` with sh in a fresh folder laid out like the repository (workflows/ where the
// commands expect it, the rest made by them), `cwf` first on the PATH; removes the folder after.
ProcessResult run_in_repository_layout(const std::string& block, const std::string& name,
                                       const std::vector<std::string>& written = {"answers.out"}) {
  fs::path here = fs::path(::testing::TempDir()) /
                  ("cwf_documented_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(here);
  fs::create_directories(here);
  fs::create_directory_symlink(fs::path(CWF_SOURCE_DIR) / "workflows", here / "workflows");
  std::error_code ignored_error;
  const std::string cwf_folder = fs::path(CWF_EXE).parent_path().string();
  ProcessResult result =
      run_process({"/bin/sh", "-c", "set -e; cd \"$1\"; PATH=\"$2:$PATH\"; " + block, "sh",
                   here.string(), cwf_folder});
  for (const std::string& file : written)
    if (fs::file_size(here / file, ignored_error) == 0 || ignored_error)
      ADD_FAILURE() << "no " << file << " was written:\n" << block;
  fs::remove_all(here);
  return result;
}

class DocumentedCommands : public ::testing::TestWithParam<std::string> {};

TEST_P(DocumentedCommands, RunAsWrittenAndPassValidation) {
  const std::string block = code_block_with(GetParam(), "cwf run workflows/linear_road.yaml");
  ASSERT_NE(block, "") << GetParam() << " shows no `cwf run workflows/linear_road.yaml`";
  ASSERT_NE(block.find("cwf lr validate"), std::string::npos) << block;
  ProcessResult result = run_in_repository_layout(block, fs::path(GetParam()).stem().string());
  EXPECT_EQ(result.status, 0) << block << "\n" << result.out << result.err;
  EXPECT_NE(result.out.find("\nPASS\n"), std::string::npos) << result.out << result.err;
}

// docs/linear-road.md's run over two processes (cwf deploy), as written.
TEST(DocumentedDeploy, RunsAsWrittenAndPassesValidation) {
  const std::string block = code_block_with("linear-road.md", "cwf deploy workflows/");
  ASSERT_NE(block, "") << "docs/linear-road.md shows no `cwf deploy`";
  ASSERT_NE(block.find("cwf lr validate"), std::string::npos) << block;
  ProcessResult result = run_in_repository_layout(block, "deploy");
  EXPECT_EQ(result.status, 0) << block << "\n" << result.out << result.err;
  EXPECT_NE(result.out.find("\nPASS\n"), std::string::npos) << result.out << result.err;
  EXPECT_NE(result.err.find("cwf deploy: 2 processes, exit statuses 0 0"), std::string::npos)
      << result.err;
}

// docs/linear-road.md's run of the parts built from windows, as written: every file it names
// is written.
TEST(DocumentedWindowedParts, RunAsWrittenAndWriteTheirFiles) {
  const std::string block =
      code_block_with("linear-road.md", "cwf run workflows/linear_road_windows/statistics.yaml");
  ASSERT_NE(block, "") << "docs/linear-road.md shows no run of the windowed parts";
  ProcessResult result = run_in_repository_layout(
      block, "windowed", {"statistics.jsonl", "stopped.jsonl", "accidents.jsonl"});
  EXPECT_EQ(result.status, 0) << block << "\n" << result.out << result.err;
}

// docs/linear-road.md's run of the benchmark built from windows, as written: it passes.
TEST(DocumentedWindowedWorkflow, RunsAsWrittenAndPassesValidation) {
  const std::string block =
      code_block_with("linear-road.md", "cwf lr run --workflow workflows/linear_road_windows.yaml");
  ASSERT_NE(block, "") << "docs/linear-road.md shows no run of linear_road_windows.yaml";
  ASSERT_NE(block.find("cwf lr validate"), std::string::npos) << block;
  ProcessResult result = run_in_repository_layout(block, "windowed_workflow");
  EXPECT_EQ(result.status, 0) << block << "\n" << result.out << result.err;
  EXPECT_NE(result.out.find("\nPASS\n"), std::string::npos) << result.out << result.err;
}

INSTANTIATE_TEST_SUITE_P(Docs, DocumentedCommands,
                         ::testing::Values("workflow-yaml.md", "linear-road.md"),
                         [](const auto& info) {
                           std::string name = fs::path(info.param).stem().string();
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace cwf::testing
