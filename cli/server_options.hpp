// The options every client command of `cwf serve` takes: which server, and its token.
#pragma once

#include <optional>
#include <string>

#include "cli/arguments.hpp"

namespace cwf::cli {

struct ServerOptions {
  std::string url;                   // --server, else $CWF_SERVER, else the local default
  std::optional<std::string> token;  // read from --token-file
};

// The options' names (valued), to add to a command's own.
inline const char* const kServerOptionNames[] = {"server", "token-file"};
// Their help, to append to a command's usage.
extern const char* const kServerOptionsHelp;

// Throws std::runtime_error when the token file cannot be read.
ServerOptions server_options(const Arguments& args);

}  // namespace cwf::cli
