// tcp_source with real sockets on loopback: records arrive whole and in order under every
// director; malformed, oversized and CSV lines; connections beyond the limit; a server that
// closes and comes back; a slow consumer that keeps the queue bounded.
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "actors/net/tcp_source.hpp"
#include "tests/net/push_runs.hpp"
#include "tests/schedulers/all_policies.hpp"

namespace cwf::net {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using testing::Collect;
using testing::eventually;
using testing::json_of;
using TcpRun = testing::SourceRun<TcpSource>;

void send(unsigned short port, const std::string& text) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  asio::write(socket, asio::buffer(text));
}

TcpSourceOptions listening() {
  TcpSourceOptions options;
  options.listen = "127.0.0.1:0";
  options.end_on_close = true;
  return options;
}

class TcpSourceUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(TcpSourceUnderEveryDirector, JsonLinesArriveWholeAndInOrder) {
  TcpRun run(listening(), GetParam());
  std::string text;
  for (int i = 0; i < 5000; ++i)
    text += "{\"n\": " + std::to_string(i) + "}\n";
  send(run.port(), text);
  run.join();
  const std::vector<Value> got = run.out->tokens();
  ASSERT_EQ(got.size(), 5000u);
  for (int i = 0; i < 5000; ++i)
    ASSERT_EQ(got[static_cast<std::size_t>(i)].field("n")->as_int(), i);
  EXPECT_EQ(run.summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, TcpSourceUnderEveryDirector,
                         ::testing::Values("fifo/1", "qbs/2", "rr/1", "rb/2", "threaded"),
                         schedulers::testing::director_test_name);

TEST(TcpSource, MalformedAndOversizedLinesGoToErrorsWithTheReason) {
  TcpSourceOptions options = listening();
  options.push.max_message = 40;
  TcpRun run(options);
  send(run.port(),
       "{\"a\": 1}\n"
       "{\"a\": \n"
       "[1, 2]\n"
       "\r\n"
       "{\"a\": \"" +
           std::string(60, 'x') +
           "\"}\n"
           "{\"a\": 2}\r\n"
           "{\"a\": 3}");  // the last line has no newline: the close ends it
  run.join();
  EXPECT_EQ(json_of(*run.out),
            (std::vector<std::string>{R"({"a":1})", R"({"a":2})", R"({"a":3})"}));
  ASSERT_EQ(run.bad->size(), 3u);
  std::vector<std::string> errors;
  for (const Value& v : run.bad->tokens()) {
    errors.push_back(std::string(v.field("error")->as_string()));
    EXPECT_TRUE(std::string(v.field("peer")->as_string()).starts_with("127.0.0.1:"));
  }
  EXPECT_TRUE(errors[0].starts_with("invalid JSON at ")) << errors[0];
  EXPECT_EQ(errors[1], "expected a JSON object, got array");
  EXPECT_EQ(errors[2], "a line longer than 40 bytes (max_message)");
  EXPECT_EQ(run.bad->tokens()[2].field("text")->as_string().size(), 41u);  // as far as it read
}

TEST(TcpSource, CsvLinesUnderTheirHeader) {
  TcpSourceOptions options = listening();
  options.format = RecordDecoder::Format::csv;
  TcpRun run(options);
  send(run.port(), "id,name,price\n1,apple,0.5\n2,\"pear, ripe\",1\n3,plum\n");
  run.join();
  EXPECT_EQ(json_of(*run.out),
            (std::vector<std::string>{R"({"id":1,"name":"apple","price":0.5})",
                                      R"({"id":2,"name":"pear, ripe","price":1})"}));
  ASSERT_EQ(run.bad->size(), 1u);
  EXPECT_EQ(run.bad->tokens()[0].field("error")->as_string(),
            "expected 3 fields (the header's), got 2");
}

TEST(TcpSource, ConnectionsBeyondTheLimitAreClosedAndReported) {
  TcpSourceOptions options = listening();
  options.max_connections = 1;
  TcpRun run(options);
  asio::io_context io;
  tcp::socket first(io), second(io);
  const tcp::endpoint at(asio::ip::make_address("127.0.0.1"), run.port());
  first.connect(at);
  asio::write(first, asio::buffer(std::string("{\"n\": 1}\n")));
  ASSERT_TRUE(eventually([&] { return run.out->size() == 1; }));
  second.connect(at);
  // The second is closed by the source: reading finds the end.
  char byte;
  boost::system::error_code error;
  asio::read(second, asio::buffer(&byte, 1), error);
  EXPECT_EQ(error, asio::error::eof);
  first.close();
  run.join();
  EXPECT_EQ(run.summary.actors[0].warnings, 1u);
}

// connect: the server closes after each batch and comes back; the source connects again (with
// backoff) and ends at its limit with every record of every connection.
TEST(TcpSource, AServerThatClosesAndComesBackIsReadAgain) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  TcpSourceOptions options;
  options.connect = "127.0.0.1:" + std::to_string(acceptor.local_endpoint().port());
  options.push.limit = 9;
  TcpRun run(options);
  for (int round = 0; round < 3; ++round) {
    tcp::socket peer(io);
    acceptor.accept(peer);
    std::string text;
    for (int i = 0; i < 3; ++i)
      text += "{\"n\": " + std::to_string(round * 3 + i) + "}\n";
    asio::write(peer, asio::buffer(text));
  }  // each closes as it goes
  run.join();
  std::vector<std::string> expected;
  for (int i = 0; i < 9; ++i)
    expected.push_back("{\"n\":" + std::to_string(i) + "}");
  EXPECT_EQ(json_of(*run.out), expected);
}

TEST(TcpSource, ASlowConsumerKeepsTheQueueBounded) {
  testing::expect_a_slow_consumer_bounds_the_queue<TcpSource>(
      listening(), [](unsigned short port, const std::vector<std::string>& lines) {
        std::string text;
        for (const std::string& line : lines)
          text += line;
        send(port, text);
      });
}

}  // namespace
}  // namespace cwf::net

namespace cwf::net {
namespace {

std::string param_error(std::map<std::string, Value> values) {
  try {
    tcp_source_type().factory(Params(std::move(values), {}, ""));
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return "";
}

TEST(TcpSource, ParametersSayWhatIsWrong) {
  EXPECT_EQ(param_error({{"listen", "localhost:9000"}}),
            "listen: 'localhost' is not an IP address");
  EXPECT_EQ(param_error({{"listen", "127.0.0.1:70000"}}),
            "listen: '70000' is not a port (0 to 65535)");
  EXPECT_EQ(param_error({{"listen", "127.0.0.1"}}),
            "listen: expected HOST:PORT, e.g. 127.0.0.1:9000, got '127.0.0.1'");
  EXPECT_EQ(param_error({}), "listen: set exactly one of listen (HOST:PORT) and connect");
  EXPECT_EQ(param_error({{"connect", "h:1"}, {"format", "xml"}}),
            "format: unknown format 'xml' (use jsonl or csv)");
  EXPECT_EQ(param_error({{"listen", "127.0.0.1:0"}}), "");
}

}  // namespace
}  // namespace cwf::net
