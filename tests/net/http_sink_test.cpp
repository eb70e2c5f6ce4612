// http_sink against a real HTTP server on loopback (Boost.Beast, on its own thread): every record
// arrives in order under every director; failed requests (503, a connection closed without an
// answer) are sent again, refused ones (400) are reported as dropped; CSV bodies carry their
// header; the URL is checked.
#include "actors/net/http_sink.hpp"

#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/net/push_runs.hpp"

namespace cwf::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
using testing::lines_of;
using testing::run_into;

// A server answering each request with what `answer` says for it (nullopt: the connection is
// closed without an answer); it records every body it got, in order.
class Server {
 public:
  using Answer = std::function<std::optional<http::status>(int request, const std::string& body)>;
  explicit Server(Answer answer)
      : answer_(std::move(answer)),
        acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    thread_ = std::thread([this] { serve(); });
  }
  ~Server() {
    done_ = true;
    tcp::socket wake(io_);  // unblocks accept
    boost::system::error_code ignored;
    wake.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + "/in";
  }
  std::vector<std::string> bodies() {
    std::lock_guard lock(mutex_);
    return bodies_;
  }
  // The lines of every body taken (answered 2xx), in order.
  std::vector<std::string> lines_taken() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> lines;
    for (const std::string& body : taken_)
      for (std::string& line : lines_of(body))
        lines.push_back(std::move(line));
    return lines;
  }

 private:
  void serve() {
    while (!done_) {
      tcp::socket socket(io_);
      boost::system::error_code error;
      acceptor_.accept(socket, error);
      if (error || done_) return;
      beast::flat_buffer buffer;
      for (;;) {
        http::request<http::string_body> request;
        http::read(socket, buffer, request, error);
        if (error) break;
        std::optional<http::status> status;
        {
          std::lock_guard lock(mutex_);
          EXPECT_EQ(request.target(), "/in");
          bodies_.push_back(request.body());
          status = answer_(static_cast<int>(bodies_.size()) - 1, request.body());
          if (status && http::to_status_class(*status) == http::status_class::successful)
            taken_.push_back(request.body());
        }
        if (!status) break;  // closed without an answer
        http::response<http::string_body> response(*status, 11);
        response.keep_alive(true);
        response.prepare_payload();
        http::write(socket, response, error);
        if (error) break;
      }
    }
  }

  Answer answer_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::atomic<bool> done_{false};
  std::mutex mutex_;
  std::vector<std::string> bodies_, taken_;
  std::thread thread_;
};

std::unique_ptr<HttpSink> posting_to(const Server& server) {
  HttpSinkOptions options;
  parse_http_url(server.url(), options);
  options.retry_min = 1 * kMillisecond;
  options.retry_max = 10 * kMillisecond;
  return std::make_unique<HttpSink>(options);
}

std::vector<std::string> numbers(int count) {
  std::vector<std::string> lines;
  for (int i = 0; i < count; ++i)
    lines.push_back("{\"n\":" + std::to_string(i) + ",\"pad\":\"\"}");
  return lines;
}

class HttpSinkUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(HttpSinkUnderEveryDirector, EveryRecordArrivesInOrder) {
  Server server([](int, const std::string&) { return http::status::accepted; });
  RunSummary summary = run_into(posting_to(server), 3000, 0, GetParam());
  EXPECT_EQ(server.lines_taken(), numbers(3000));
  EXPECT_EQ(summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, HttpSinkUnderEveryDirector,
                         ::testing::Values("fifo/1", "qbs/2", "rr/1", "rb/2", "threaded"),
                         schedulers::testing::director_test_name);

// The first request is answered 503, the second is cut off without an answer, the third gets
// 429: each is sent again, and every record arrives, in order.
TEST(HttpSink, FailedRequestsAreSentAgain) {
  Server server([](int request, const std::string&) -> std::optional<http::status> {
    if (request == 0) return http::status::service_unavailable;
    if (request == 1) return std::nullopt;
    if (request == 2) return http::status::too_many_requests;
    return http::status::ok;
  });
  RunSummary summary = run_into(posting_to(server), 500, 0, "fifo/1");
  EXPECT_EQ(server.lines_taken(), numbers(500));
  const std::vector<std::string> bodies = server.bodies();
  ASSERT_GE(bodies.size(), 4u);
  EXPECT_EQ(bodies[1], bodies[0]);  // the same batch each time
  EXPECT_EQ(bodies[2], bodies[0]);
  EXPECT_EQ(bodies[3], bodies[0]);
  EXPECT_EQ(summary.incomplete(), 0u);
}

// A batch the server refuses (400) is not sent again: its lines are reported as dropped, the
// others arrive, and the run is not clean.
TEST(HttpSink, RefusedBatchesAreReportedAsDropped) {
  std::atomic<std::size_t> refused_lines{0};
  Server server([&](int request, const std::string& body) {
    if (request != 1) return http::status::ok;
    refused_lines = lines_of(body).size();
    return http::status::bad_request;
  });
  RunSummary summary = run_into(posting_to(server), 500, 0, "fifo/1");
  ASSERT_GT(refused_lines, 0u);
  EXPECT_EQ(server.lines_taken().size(), 500u - refused_lines.load());
  EXPECT_EQ(summary.incomplete(), refused_lines.load());
}

TEST(HttpSink, CsvBodiesBeginWithTheHeader) {
  Server server([](int, const std::string&) { return http::status::ok; });
  HttpSinkOptions options;
  parse_http_url(server.url(), options);
  options.format = RecordDecoder::Format::csv;
  run_into(std::make_unique<HttpSink>(options), 300, 0, "fifo/1");
  const std::vector<std::string> bodies = server.bodies();
  ASSERT_FALSE(bodies.empty());
  std::size_t rows = 0;
  for (const std::string& body : bodies) {
    const std::vector<std::string> lines = lines_of(body);
    ASSERT_EQ(lines.front(), "n,pad");
    rows += lines.size() - 1;
  }
  EXPECT_EQ(rows, 300u);
}

std::string url_error(const std::string& url) {
  HttpSinkOptions options;
  try {
    parse_http_url(url, options);
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return options.address + " " + options.host + " " + options.target;
}

TEST(HttpSink, TheUrlIsCheckedAndRead) {
  EXPECT_EQ(url_error("http://127.0.0.1:9003/events?a=1"),
            "127.0.0.1:9003 127.0.0.1:9003 /events?a=1");
  EXPECT_EQ(url_error("http://example.org"), "example.org:80 example.org /");
  EXPECT_EQ(url_error("https://example.org/x"),
            "url: https is not supported: post to an http:// URL (e.g. through a local TLS proxy)");
  EXPECT_EQ(url_error("ftp://x/y"), "url: expected http://HOST[:PORT][/PATH], got 'ftp://x/y'");
  EXPECT_EQ(url_error("http:///x"), "url: no host in 'http:///x'");
}

}  // namespace
}  // namespace cwf::net
