#include "cli/server_options.hpp"

#include <cstdlib>

#include "cli/server/token_file.hpp"

namespace cwf::cli {

const char* const kServerOptionsHelp =
    "\nserver options:\n"
    "  --server URL        the server (default $CWF_SERVER, else http://127.0.0.1:8420)\n"
    "  --token-file FILE   the server's token, when it has one\n";

ServerOptions server_options(const Arguments& args) {
  ServerOptions options;
  const char* from_env = std::getenv("CWF_SERVER");
  options.url =
      args.value("server").value_or(from_env && *from_env ? from_env : "http://127.0.0.1:8420");
  if (auto file = args.value("token-file")) options.token = read_token_file(*file);
  return options;
}

}  // namespace cwf::cli
