#include "process.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cwf::testing {

ProcessResult run_cwf(const std::vector<std::string>& args, const ProcessOptions& options) {
  std::vector<std::string> argv = {CWF_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, options);
}

ProcessResult run_cwf(const std::vector<std::string>& args, int interrupt_after_ms) {
  ProcessOptions options;
  options.interrupt_after = std::chrono::milliseconds(interrupt_after_ms);
  return run_cwf(args, options);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

void expect_output(const std::string& workflow, const std::string& expected_file,
                   const std::string& director, bool ordered,
                   const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run", workflow, "--director", director};
  if (auto colon = director.find(':'); colon != std::string::npos) {
    args[3] = director.substr(0, colon);
    args.insert(args.end(), {"--scheduler", director.substr(colon + 1)});
  }
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessResult result = run_cwf(args);
  ASSERT_EQ(result.status, 0) << result.err;
  std::vector<std::string> actual = lines_of(result.out);
  std::vector<std::string> expected = lines_of(read_file(expected_file));
  ASSERT_FALSE(expected.empty()) << expected_file;
  if (!ordered) {
    std::sort(actual.begin(), actual.end());
    std::sort(expected.begin(), expected.end());
  }
  EXPECT_EQ(actual, expected);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace cwf::testing
