#include "cli/server/token_file.hpp"

#include <fstream>
#include <stdexcept>

namespace cwf::cli {

std::string read_token_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("--token-file: cannot read '" + path + "'");
  std::string token;
  std::getline(in, token);
  while (!token.empty() && (token.back() == '\r' || token.back() == ' '))
    token.pop_back();
  return token;
}

}  // namespace cwf::cli
