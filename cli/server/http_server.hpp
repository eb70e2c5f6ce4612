// The HTTP/1.1 server of `cwf serve`, on Boost.Beast over Boost.Asio: it reads each request
// (keep-alive, at most kMaxBody bytes of body and kMaxHeader of header, 30 s to send one), hands
// it to the handler and writes the answer. Oversized requests get 413 (431 for the header),
// malformed ones 400, and the connection is closed; nothing a client sends reaches a running
// workflow other than through the handler.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "cli/server/rest_api.hpp"

namespace cwf::cli {

inline constexpr std::uint64_t kMaxBody = 1024 * 1024;
inline constexpr std::uint32_t kMaxHeader = 16 * 1024;

class HttpServer {
 public:
  using Handler = std::function<ApiResponse(const ApiRequest&)>;
  // Binds `host`:`port` (0: a free port, see port()); throws std::runtime_error naming the
  // address when it cannot.
  HttpServer(const std::string& host, std::uint16_t port, Handler handler);
  ~HttpServer();
  std::uint16_t port() const;
  // Serves on `threads` threads until stop() (from any thread, or a signal handler's thread).
  void run(unsigned threads);
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
bool is_loopback(const std::string& host);

}  // namespace cwf::cli
