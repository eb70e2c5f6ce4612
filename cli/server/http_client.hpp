// A blocking HTTP/1.1 client for `cwf serve`'s API (Boost.Beast): one request per connection,
// used by the client commands (cwf register, list...) and by tests.
#pragma once

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

#include "cli/server/rest_api.hpp"

namespace cwf::cli {

// No server answers at the address (nothing listens, or it does not answer in time).
class ServerUnreachable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `server`: "http://HOST:PORT" (a trailing slash is ignored). Throws std::invalid_argument for
// another form, ServerUnreachable.
ApiResponse http_call(const std::string& server, const std::string& method,
                      const std::string& target, const std::string& body = "",
                      const std::optional<std::string>& token = std::nullopt,
                      std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace cwf::cli
