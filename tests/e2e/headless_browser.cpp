#include "tests/e2e/headless_browser.hpp"

#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "cli/server/http_client.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::testing {

namespace fs = std::filesystem;
namespace net = boost::asio;
namespace websocket = boost::beast::websocket;
using tcp = net::ip::tcp;

bool chromium_installed() {
  return access("/usr/bin/chromium", X_OK) == 0;
}

HeadlessBrowser::HeadlessBrowser(const fs::path& profile, int width, int height) {
  fs::create_directories(profile);
  const fs::path port_file = profile / "DevToolsActivePort";
  fs::remove(port_file);
  chromium_.emplace(std::vector<std::string>{
      "/usr/bin/chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
      "--no-default-browser-check", "--disable-extensions", "--remote-debugging-port=0",
      "--remote-debugging-address=127.0.0.1", "--user-data-dir=" + profile.string(),
      "--window-size=" + std::to_string(width) + "," + std::to_string(height), "about:blank"});
  // Chromium writes the port it listens on into the profile.
  std::string port;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (port.empty()) {
    if (std::chrono::steady_clock::now() > give_up)
      throw std::runtime_error("chromium wrote no DevToolsActivePort in 60 s");
    std::ifstream in(port_file);
    std::getline(in, port);
    if (port.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::string devtools = "http://127.0.0.1:" + port;
  std::string socket_path;
  while (socket_path.empty()) {
    if (std::chrono::steady_clock::now() > give_up)
      throw std::runtime_error("chromium shows no page at " + devtools + "/json/list");
    Value pages = parse_json(cli::http_call(devtools, "GET", "/json/list").body);
    for (const Value& page : pages.as_array())
      if (page.field("type") && page.field("type")->as_string() == "page") {
        std::string url(page.field("webSocketDebuggerUrl")->as_string());
        socket_path = url.substr(url.find('/', std::string("ws://").size()));
        break;
      }
    if (socket_path.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  socket_ = std::make_unique<websocket::stream<tcp::socket>>(io_);
  tcp::resolver resolver(io_);
  net::connect(socket_->next_layer(), resolver.resolve("127.0.0.1", port));
  timeval limit{60, 0};
  setsockopt(socket_->next_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  socket_->read_message_max(64 * 1024 * 1024);  // screenshots
  socket_->handshake("127.0.0.1:" + port, socket_path);
  call("Page.enable", Value::record({}));
  // The page's size exactly (the window's would lose what a browser's frame takes).
  call("Emulation.setDeviceMetricsOverride",
       Value::record({{"width", Value(std::int64_t(width))},
                      {"height", Value(std::int64_t(height))},
                      {"deviceScaleFactor", Value(std::int64_t(1))},
                      {"mobile", Value(false)}}));
}

HeadlessBrowser::~HeadlessBrowser() {
  boost::beast::error_code ignored;
  if (socket_) socket_->close(websocket::close_code::normal, ignored);
  if (chromium_) chromium_->stop(std::chrono::seconds(10));
}

Value HeadlessBrowser::call(const std::string& method, const Value& params) {
  const std::int64_t id = next_id_++;
  socket_->write(net::buffer(
      Value::record({{"id", Value(id)}, {"method", Value(method)}, {"params", params}}).to_json()));
  // Events come in between: read until the answer with this id.
  for (;;) {
    boost::beast::flat_buffer buffer;
    socket_->read(buffer);
    Value message = parse_json(boost::beast::buffers_to_string(buffer.data()));
    const Value* answered = message.field("id");
    if (!answered || answered->as_int() != id) continue;
    if (const Value* error = message.field("error"))
      throw std::runtime_error(method + ": " + error->to_json());
    return *message.field("result");
  }
}

void HeadlessBrowser::navigate(const std::string& url) {
  call("Page.navigate", Value::record({{"url", Value(url)}}));
}

Value HeadlessBrowser::evaluate(const std::string& expression) {
  Value result = call("Runtime.evaluate", Value::record({{"expression", Value(expression)},
                                                         {"returnByValue", Value(true)},
                                                         {"awaitPromise", Value(true)}}));
  if (const Value* exception = result.field("exceptionDetails"))
    throw std::runtime_error(expression + ": " + exception->to_json());
  const Value* value = result.field("result")->field("value");
  return value ? *value : Value();
}

bool HeadlessBrowser::wait_for(const std::string& expression, int seconds) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < give_up) {
    try {
      if (evaluate(expression).truthy()) return true;
    } catch (const std::runtime_error&) {
      // Not there yet (the page is loading).
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

std::string HeadlessBrowser::screenshot() {
  Value shot = call("Page.captureScreenshot", Value::record({{"format", Value("png")}}));
  return base64_decode(std::string(shot.field("data")->as_string()));
}

std::string base64_decode(const std::string& text) {
  auto digit = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  std::uint32_t bits = 0;
  int held = 0;
  for (char c : text) {
    if (c == '=') break;
    const int d = digit(c);
    if (d < 0) throw std::invalid_argument("not base64");
    bits = (bits << 6) | static_cast<std::uint32_t>(d);
    held += 6;
    if (held >= 8) {
      held -= 8;
      out += static_cast<char>((bits >> held) & 0xff);
    }
  }
  return out;
}

}  // namespace cwf::testing
