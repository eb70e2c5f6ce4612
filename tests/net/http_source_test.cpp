// http_source with real HTTP clients (Boost.Beast) on loopback: records arrive whole and in
// order under every director over one kept-alive connection; JSON documents and lines; the
// answers (202 with counts, 400, 401, 404, 405, 413) and 503 while the workflow is behind, after
// which the same request is taken.
#include "actors/net/http_source.hpp"

#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <map>
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
using testing::eventually;
using testing::json_of;
using HttpRun = testing::SourceRun<HttpSource>;

// One kept-alive connection to the source.
class Poster {
 public:
  explicit Poster(unsigned short port) : socket_(io_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }
  http::response<http::string_body> send(http::verb verb, const std::string& target,
                                         const std::string& body,
                                         const std::string& type = "application/x-ndjson",
                                         const std::string& token = "") {
    http::request<http::string_body> request(verb, target, 11);
    request.set(http::field::host, "127.0.0.1");
    request.set(http::field::content_type, type);
    if (!token.empty()) request.set(http::field::authorization, "Bearer " + token);
    request.body() = body;
    request.prepare_payload();
    http::write(socket_, request);
    http::response<http::string_body> response;
    http::read(socket_, buffer_, response);
    return response;
  }
  http::response<http::string_body> post(const std::string& body,
                                         const std::string& type = "application/x-ndjson") {
    return send(http::verb::post, "/events", body, type);
  }

 private:
  asio::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

HttpSourceOptions serving(std::int64_t limit) {
  HttpSourceOptions options;
  options.access.listen = "127.0.0.1:0";
  options.path = "/events";
  options.push.limit = limit;
  return options;
}

class HttpSourceUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(HttpSourceUnderEveryDirector, RecordsArriveWholeAndInOrder) {
  HttpRun run(serving(1000), GetParam());
  Poster poster(run.port());
  for (int request = 0; request < 50; ++request) {
    std::string body;
    for (int i = 0; i < 20; ++i)
      body += "{\"n\": " + std::to_string(request * 20 + i) + "}\n";
    auto response = poster.post(body);
    ASSERT_EQ(response.result(), http::status::accepted);
    ASSERT_EQ(response.body(), "{\"accepted\":20,\"malformed\":0}\n");
  }
  run.join();
  const std::vector<Value> got = run.out->tokens();
  ASSERT_EQ(got.size(), 1000u);
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(got[static_cast<std::size_t>(i)].field("n")->as_int(), i);
  EXPECT_EQ(run.summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, HttpSourceUnderEveryDirector,
                         ::testing::Values("fifo/1", "qbs/2", "rr/1", "rb/2", "threaded"),
                         schedulers::testing::director_test_name);

TEST(HttpSource, JsonDocumentsLinesAndMalformedBodies) {
  HttpRun run(serving(4));
  Poster poster(run.port());
  EXPECT_EQ(poster.post(R"([{"n": 1}, {"n": 2}, 3])", "application/json").body(),
            "{\"accepted\":2,\"malformed\":1}\n");
  EXPECT_EQ(poster.post(R"({"n": 3})", "application/json; charset=utf-8").body(),
            "{\"accepted\":1,\"malformed\":0}\n");
  auto bad = poster.post("not json\n[1]\n");
  EXPECT_EQ(bad.result(), http::status::bad_request);
  EXPECT_TRUE(bad.body().starts_with("{\"accepted\":0,\"malformed\":2,\"error\":\"invalid JSON at"))
      << bad.body();
  auto empty = poster.post("[]", "application/json");
  EXPECT_EQ(empty.result(), http::status::bad_request);
  EXPECT_EQ(empty.body(), "{\"accepted\":0,\"malformed\":0,\"error\":\"no record in the body\"}\n");
  EXPECT_EQ(poster.post("{\"n\": 4}").result(), http::status::accepted);
  run.join();
  EXPECT_EQ(json_of(*run.out),
            (std::vector<std::string>{R"({"n":1})", R"({"n":2})", R"({"n":3})", R"({"n":4})"}));
  ASSERT_EQ(run.bad->size(), 3u);
  EXPECT_EQ(run.bad->tokens()[0].field("error")->as_string(), "expected a JSON object, got int");
  EXPECT_EQ(run.summary.actors[0].rejected, 3u);  // the run is not clean
}

TEST(HttpSource, CsvBodiesUnderTheirHeader) {
  HttpSourceOptions options = serving(2);
  options.format = RecordDecoder::Format::csv;
  HttpRun run(options);
  Poster poster(run.port());
  EXPECT_EQ(poster.post("id,name\n1,apple\n", "text/csv").result(), http::status::accepted);
  EXPECT_EQ(poster.post("name,id\npear,2", "text/csv").result(), http::status::accepted);
  run.join();
  EXPECT_EQ(json_of(*run.out),
            (std::vector<std::string>{R"({"id":1,"name":"apple"})", R"({"name":"pear","id":2})"}));
}

TEST(HttpSource, OtherRequestsAreAnsweredWithTheReason) {
  HttpSourceOptions options = serving(1);
  options.access.token = "s3cret";
  options.max_body = 100;
  HttpRun run(options);
  // Each refusal ends its connection (the body may be left unread).
  EXPECT_EQ(Poster(run.port()).post("{\"n\": 1}").result(), http::status::unauthorized);
  EXPECT_EQ(Poster(run.port())
                .send(http::verb::post, "/other", "{}", "application/json", "s3cret")
                .result(),
            http::status::not_found);
  auto get = Poster(run.port()).send(http::verb::get, "/events", "", "text/plain", "s3cret");
  EXPECT_EQ(get.result(), http::status::method_not_allowed);
  EXPECT_EQ(get[http::field::allow], "POST");
  auto big =
      Poster(run.port()).send(http::verb::post, "/events?token=s3cret", std::string(200, ' '));
  EXPECT_EQ(big.result(), http::status::payload_too_large);
  EXPECT_EQ(big.body(), "a body over 100 bytes (max_body)\n");
  Poster poster(run.port());
  EXPECT_EQ(poster.send(http::verb::post, "/events?token=s3cret", "{\"n\": 1}").result(),
            http::status::accepted);
  run.join();
  EXPECT_EQ(run.out->size(), 1u);
}

// A page on another site cannot post to a loopback source (any page the user has open could),
// nor can one that had its name point at 127.0.0.1; a loopback page and a listed one can.
TEST(HttpSource, PagesFromOtherSitesAreRefused) {
  HttpSourceOptions options = serving(2);
  options.access.origins = {"http://app.example:8080"};
  HttpRun run(options);
  auto from = [&](const std::string& origin, const std::string& host) {
    asio::io_context io;
    tcp::socket socket(io);
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), run.port()));
    http::request<http::string_body> request(http::verb::post, "/events", 11);
    request.set(http::field::host, host);
    if (!origin.empty()) request.set(http::field::origin, origin);
    request.body() = "{\"n\": 1}";
    request.prepare_payload();
    http::write(socket, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(socket, buffer, response);
    return std::make_pair(response.result_int(), response.body());
  };
  EXPECT_EQ(from("http://evil.example", "127.0.0.1"),
            std::make_pair(403u, std::string("requests from the page http://evil.example are not "
                                             "taken (origins: lists the pages allowed)\n")));
  EXPECT_EQ(from("", "evil.example:9003"),
            std::make_pair(403u, std::string("this server answers to loopback names, not "
                                             "'evil.example'\n")));
  EXPECT_EQ(from("http://localhost:3000", "localhost:9003").first, 202u);
  EXPECT_EQ(from("http://app.example:8080", "127.0.0.1").first, 202u);
  run.join();
  EXPECT_EQ(run.out->size(), 2u);
}

// A client that asks before sending its body (curl does for bodies over 1 KiB) is told to go
// on, and its body is taken.
TEST(HttpSource, ExpectContinueIsAnswered) {
  HttpRun run(serving(1));
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), run.port()));
  const std::string body = "{\"n\": 1}\n";
  const std::string head =
      "POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n";
  asio::write(socket, asio::buffer(head));
  beast::flat_buffer buffer;
  http::response<http::empty_body> go_on;
  http::read(socket, buffer, go_on);
  EXPECT_EQ(go_on.result(), http::status::continue_);
  asio::write(socket, asio::buffer(body));
  http::response<http::string_body> response;
  http::read(socket, buffer, response);
  EXPECT_EQ(response.result(), http::status::accepted);
  run.join();
  EXPECT_EQ(run.out->size(), 1u);
}

// While max_pending records wait, a POST is answered 503 with Retry-After and nothing of it is
// taken; once the workflow caught up the same POST is accepted. Nothing is lost.
TEST(HttpSource, ABusyWorkflowAnswers503AndTheRetryIsTaken) {
  HttpSourceOptions options = serving(3);
  options.push.max_pending = 1;
  std::atomic<bool> release{false};
  auto blocker = std::make_unique<testing::Blocker>(release);
  testing::Blocker* held = blocker.get();
  HttpRun run(options, "fifo/1", std::move(blocker));
  struct Release {
    std::atomic<bool>& release;
    ~Release() { release = true; }  // a failed assertion does not leave the worker held
  } guard{release};
  Poster poster(run.port());
  EXPECT_EQ(poster.post("{\"n\": 1}").result(), http::status::accepted);
  ASSERT_TRUE(eventually([&] { return held->fired.load() == 1; }));       // the worker is held
  EXPECT_EQ(poster.post("{\"n\": 2}").result(), http::status::accepted);  // max_pending now
  auto busy = poster.post("{\"n\": 3}");
  EXPECT_EQ(busy.result(), http::status::service_unavailable);
  EXPECT_EQ(busy[http::field::retry_after], "1");
  release = true;
  ASSERT_TRUE(eventually([&] { return run.source->pending() == 0; }));
  EXPECT_EQ(poster.post("{\"n\": 3}").result(), http::status::accepted);
  run.join();
  EXPECT_EQ(json_of(*run.out),
            (std::vector<std::string>{R"({"n":1})", R"({"n":2})", R"({"n":3})"}));
  EXPECT_EQ(run.summary.incomplete(), 0u);
}

std::string param_error(std::map<std::string, Value> values) {
  try {
    http_source_type().factory(Params(std::move(values), {}, ""));
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return "";
}

TEST(HttpSource, ParametersSayWhatIsWrong) {
  EXPECT_EQ(param_error({{"listen", "127.0.0.1:0"}, {"path", "events"}}),
            "path: expected a path beginning with /, got 'events'");
  EXPECT_EQ(param_error({{"listen", "10.0.0.1:80"}}),
            "listen: listening on 10.0.0.1:80, reachable from other machines, needs a token "
            "(token: ...)");
  EXPECT_EQ(param_error({{"listen", "127.0.0.1:0"}, {"max_body", 0}}),
            "max_body: max_body must be at least 1");
  EXPECT_EQ(param_error({{"listen", "127.0.0.1:0"}}), "");
}

}  // namespace
}  // namespace cwf::net
