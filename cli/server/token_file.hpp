// The token of `cwf serve`, as the server and its clients read it from a file (--token-file):
// the file's first line without its line end and trailing spaces.
#pragma once

#include <string>

namespace cwf::cli {

// Throws std::runtime_error naming the file when it cannot be read.
std::string read_token_file(const std::string& path);

}  // namespace cwf::cli
