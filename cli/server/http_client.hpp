// A blocking HTTP/1.1 client for `cwf serve`'s API (Boost.Beast): one request per connection,
// used by the client commands (cwf register, list, view...) and by tests.
#pragma once

#include <chrono>
#include <functional>
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

// One Server-Sent Event: its type ("" for a plain message) and its data.
struct ServerEvent {
  std::string type;
  std::string data;
};

// GET `target` as a stream of Server-Sent Events (a live view): calls `on_event` for each until
// it returns false or the server ends the stream. Returns the status and content type; for an
// answer that is not a stream of events (an error), its body too. `timeout` bounds each read:
// the server sends a keep-alive every 15 s. Throws as http_call.
ApiResponse http_events(const std::string& server, const std::string& target,
                        const std::optional<std::string>& token,
                        const std::function<bool(const ServerEvent&)>& on_event,
                        std::chrono::milliseconds timeout = std::chrono::seconds(60));

}  // namespace cwf::cli
