#include "process.hpp"

#include <gtest/gtest.h>

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

std::vector<std::string> director_args(const std::string& director) {
  std::vector<std::string> parts;
  std::istringstream in(director);
  for (std::string part; std::getline(in, part, ':');)
    parts.push_back(part);
  if (parts.empty() || parts.size() > 3) throw std::invalid_argument("director " + director);
  std::vector<std::string> args = {"--director", parts[0]};
  if (parts.size() > 1) args.insert(args.end(), {"--scheduler", parts[1]});
  if (parts.size() > 2) args.insert(args.end(), {"--workers", parts[2]});
  return args;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace cwf::testing
