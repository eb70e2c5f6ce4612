// tcp_sink with real sockets on loopback: lines arrive whole and in order at a server it connects
// to, under several directors; CSV under its header; a server that is not up yet gets what
// waited once it is; a listening peer that does not read is let go and the lines it missed are
// reported, so the run does not end clean.
#include "actors/net/tcp_sink.hpp"

#include <gtest/gtest.h>

#include <boost/asio/buffers_iterator.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/streambuf.hpp>

#include <atomic>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/net/push_runs.hpp"
#include "tests/schedulers/all_policies.hpp"

namespace cwf::net {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using testing::eventually;
using testing::lines_of;
using testing::Numbers;
using testing::run_into;

// A server that takes one connection and reads it to its end.
class Server {
 public:
  explicit Server(unsigned short port = 0)
      : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), port)) {
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] {
      tcp::socket socket(io_);
      acceptor_.accept(socket);
      asio::streambuf buffer;
      boost::system::error_code error;
      asio::read(socket, buffer, error);  // until the sink closes
      text_.set_value(
          std::string(asio::buffers_begin(buffer.data()), asio::buffers_end(buffer.data())));
    });
  }
  ~Server() {
    if (thread_.joinable()) thread_.join();
  }
  unsigned short port() const { return port_; }
  std::string text() {
    auto got = text_.get_future();
    EXPECT_EQ(got.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    thread_.join();
    return got.get();
  }

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_;
  unsigned short port_ = 0;
  std::promise<std::string> text_;
  std::thread thread_;
};

TcpSinkOptions connecting(unsigned short port) {
  TcpSinkOptions options;
  options.connect = "127.0.0.1:" + std::to_string(port);
  options.reconnect_min = 10 * kMillisecond;
  options.reconnect_max = 50 * kMillisecond;
  return options;
}

class TcpSinkUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(TcpSinkUnderEveryDirector, LinesArriveWholeAndInOrder) {
  Server server;
  RunSummary summary =
      run_into(std::make_unique<TcpSink>(connecting(server.port())), 5000, 0, GetParam());
  const std::vector<std::string> lines = lines_of(server.text());
  ASSERT_EQ(lines.size(), 5000u);
  for (int i = 0; i < 5000; ++i)
    ASSERT_EQ(lines[static_cast<std::size_t>(i)], "{\"n\":" + std::to_string(i) + ",\"pad\":\"\"}");
  EXPECT_EQ(summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, TcpSinkUnderEveryDirector,
                         ::testing::Values("fifo/1", "qbs/2", "rr/1", "rb/2", "threaded"),
                         schedulers::testing::director_test_name);

TEST(TcpSink, CsvLinesFollowTheirHeader) {
  Server server;
  TcpSinkOptions options = connecting(server.port());
  options.format = RecordDecoder::Format::csv;
  RunSummary summary = run_into(std::make_unique<TcpSink>(options), 3, 2, "fifo/1");
  EXPECT_EQ(server.text(), "n,pad\n0,xx\n1,xx\n2,xx\n");
  EXPECT_EQ(summary.incomplete(), 0u);
}

// The server comes up after the run started: what the sink was given meanwhile waited for the
// connection (backoff), and arrives first and whole.
TEST(TcpSink, AServerThatComesUpLaterGetsWhatWaited) {
  unsigned short port;
  {
    asio::io_context io;
    tcp::acceptor probe(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    port = probe.local_endpoint().port();
  }
  std::unique_ptr<Server> server;
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    server = std::make_unique<Server>(port);
  });
  TcpSinkOptions options = connecting(port);
  RunSummary summary = run_into(std::make_unique<TcpSink>(options), 100, 0, "fifo/1");
  later.join();
  EXPECT_EQ(lines_of(server->text()).size(), 100u);
  EXPECT_EQ(summary.incomplete(), 0u);
}

// A peer of a listening sink that never reads: once max_pending lines wait for it, it is
// disconnected; the lines it did not get are reported as dropped and the run is not clean.
TEST(TcpSink, AListenerThatDoesNotReadIsLetGoAndWhatItMissedIsReported) {
  TcpSinkOptions options;
  options.listen = "127.0.0.1:0";
  options.sink.max_pending = 50;
  options.sink.linger = 100 * kMillisecond;
  auto owned = std::make_unique<TcpSink>(options);
  TcpSink* sink = owned.get();
  std::atomic<bool> gate{false};
  asio::io_context io;
  tcp::socket reader(io);
  std::thread connect([&] {
    ASSERT_TRUE(eventually([&] { return sink->port() != 0; }));
    reader.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), sink->port()));
    ASSERT_TRUE(eventually([&] { return sink->peers() == 1; }));
    gate = true;  // never reads from here on
  });
  // 20 000 lines of 1 kB: more than the socket buffers hold.
  RunSummary summary = run_into(std::move(owned), 20000, 1000, "fifo/1", &gate);
  connect.join();
  EXPECT_GT(summary.incomplete(), 0u);
}

}  // namespace
}  // namespace cwf::net
