// A push source waiting on the network holds no worker: under every director — one worker
// included — the rest of the workflow runs to its end while the source has received nothing,
// and the source still takes what comes afterwards.
#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "actors/net/http_source.hpp"
#include "actors/net/tcp_source.hpp"
#include "actors/net/websocket_source.hpp"
#include "tests/net/push_runs.hpp"
#include "tests/runtime/beside_a_chain.hpp"

namespace cwf::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;
using testing::eventually;

tcp::endpoint loopback(unsigned short port) {
  return {asio::ip::make_address("127.0.0.1"), port};
}

// A push source, built for a run, and how a client sends it one record and leaves.
struct Kind {
  std::string name;
  std::function<std::unique_ptr<PushSource>()> make;
  std::function<void(unsigned short port, const std::string& line)> send_one;
};

std::vector<Kind> kinds() {
  return {
      {"tcp",
       [] {
         TcpSourceOptions o;
         o.listen = "127.0.0.1:0";
         o.end_on_close = true;
         return std::make_unique<TcpSource>(o);
       },
       [](unsigned short port, const std::string& line) {
         asio::io_context io;
         tcp::socket socket(io);
         socket.connect(loopback(port));
         asio::write(socket, asio::buffer(line));
       }},
      {"websocket",
       [] {
         WebSocketSourceOptions o;
         o.gate.access.listen = "127.0.0.1:0";
         o.end_on_close = true;
         return std::make_unique<WebSocketSource>(o);
       },
       [](unsigned short port, const std::string& line) {
         asio::io_context io;
         beast::websocket::stream<tcp::socket> ws(io);
         ws.next_layer().connect(loopback(port));
         ws.handshake("127.0.0.1", "/");
         ws.write(asio::buffer(line));
         ws.close(beast::websocket::close_code::normal);
       }},
      {"http",
       [] {
         HttpSourceOptions o;
         o.access.listen = "127.0.0.1:0";
         o.push.limit = 1;
         return std::make_unique<HttpSource>(o);
       },
       [](unsigned short port, const std::string& line) {
         asio::io_context io;
         tcp::socket socket(io);
         socket.connect(loopback(port));
         beast::http::request<beast::http::string_body> request(beast::http::verb::post, "/", 11);
         request.set(beast::http::field::host, "127.0.0.1");
         request.body() = line;
         request.prepare_payload();
         beast::http::write(socket, request);
         beast::flat_buffer buffer;
         beast::http::response<beast::http::string_body> response;
         beast::http::read(socket, buffer, response);
       }},
  };
}

class AWaitingSource : public ::testing::TestWithParam<std::tuple<std::string, std::size_t>> {};

TEST_P(AWaitingSource, LeavesTheWorkersToTheOtherActors) {
  const auto& [director_name, kind_index] = GetParam();
  const Kind kind = kinds()[kind_index];
  cwf::testing::BesideAChain run =
      cwf::testing::run_beside_a_chain(kind.make(), director_name, [&](Actor& actor) {
        auto& source = static_cast<PushSource&>(actor);
        // (Non-fatal: the run's thread is joined.)
        EXPECT_TRUE(eventually([&] { return source.port() != 0; }));
        kind.send_one(source.port(), "{\"n\": 1}\n");
      });
  EXPECT_EQ(run.received.size(), 1u);
  EXPECT_EQ(run.summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, AWaitingSource,
                         ::testing::Combine(::testing::Values("fifo/1", "qbs/2", "rr/1", "rb/2",
                                                              "threaded"),
                                            ::testing::Values(0u, 1u, 2u)),
                         [](const auto& info) {
                           std::string name = std::get<0>(info.param) + "_" +
                                              kinds()[std::get<1>(info.param)].name;
                           for (char& c : name)
                             if (c == '/') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace cwf::net
