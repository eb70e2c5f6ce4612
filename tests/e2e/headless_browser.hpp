// A headless Chromium (Debian's `chromium`) driven over the DevTools protocol, a WebSocket
// spoken with Boost.Beast: it opens pages, evaluates JavaScript in them and takes screenshots.
// For the tests of the server's dashboard, which assert on the page a real browser made.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/websocket.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "runtime/values/value.hpp"
#include "tests/child_process.hpp"

namespace cwf::testing {

bool chromium_installed();

class HeadlessBrowser {
 public:
  // Starts Chromium with a profile in `profile` (created) and a window of `width` x `height`,
  // and connects to its page. Throws std::runtime_error when it does not come up in 60 s.
  HeadlessBrowser(const std::filesystem::path& profile, int width = 1280, int height = 900);
  ~HeadlessBrowser();

  void navigate(const std::string& url);
  // The value of a JavaScript expression in the page (promises awaited), as JSON would carry
  // it. Throws std::runtime_error with the message of an exception it threw.
  Value evaluate(const std::string& expression);
  // Waits up to `seconds` for `expression` to be true in the page; false if it never was.
  bool wait_for(const std::string& expression, int seconds = 60);
  // The page as a PNG file's bytes.
  std::string screenshot();

 private:
  Value call(const std::string& method, const Value& params);

  std::optional<ChildProcess> chromium_;
  boost::asio::io_context io_;
  std::unique_ptr<boost::beast::websocket::stream<boost::asio::ip::tcp::socket>> socket_;
  std::int64_t next_id_ = 1;
};

// Base64 (RFC 4648, with padding) decoded; throws std::invalid_argument on a character outside it.
std::string base64_decode(const std::string& text);

}  // namespace cwf::testing
