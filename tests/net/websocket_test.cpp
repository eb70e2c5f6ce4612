// websocket_source and websocket_sink with real sockets on loopback (Boost.Beast clients):
// records arrive whole and in order under every director, several to a message or one; malformed,
// oversized and CSV lines; a client that leaves and another that comes; the token; the page; a
// slow consumer on either side (no unbounded growth).
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "actors/net/websocket_sink.hpp"
#include "actors/net/websocket_source.hpp"
#include "tests/net/push_runs.hpp"

namespace cwf::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using asio::ip::tcp;
using testing::Collect;
using testing::eventually;
using testing::json_of;
using WebSocketRun = testing::SourceRun<WebSocketSource>;

// A WebSocket client of the actor listening on `port`, at `target`.
class Client {
 public:
  explicit Client(unsigned short port, const std::string& target = "/",
                  const std::string& origin = "")
      : ws_(io_) {
    ws_.next_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    if (!origin.empty())
      ws_.set_option(websocket::stream_base::decorator([origin](websocket::request_type& request) {
        request.set(http::field::origin, origin);
      }));
    ws_.handshake("127.0.0.1:" + std::to_string(port), target);
  }
  void send(const std::string& message) { ws_.write(asio::buffer(message)); }
  std::string receive() {
    beast::flat_buffer buffer;
    ws_.read(buffer);
    return beast::buffers_to_string(buffer.data());
  }
  void close() { ws_.close(websocket::close_code::normal); }
  // Reads until the server ends the connection: the close code it gave, or -1 when it cut the
  // connection without a close frame.
  int close_code() {
    beast::flat_buffer buffer;
    beast::error_code error;
    while (!error)
      ws_.read(buffer, error);
    return error == websocket::error::closed ? static_cast<int>(ws_.reason().code) : -1;
  }

 private:
  asio::io_context io_;
  websocket::stream<tcp::socket> ws_;
};

// A plain HTTP GET of `target`: the status and the body.
std::pair<unsigned, std::string> http_get(unsigned short port, const std::string& target) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> request(http::verb::get, target, 11);
  request.set(http::field::host, "127.0.0.1");
  http::write(socket, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(socket, buffer, response);
  return {response.result_int(), response.body()};
}

WebSocketSourceOptions listening() {
  WebSocketSourceOptions options;
  options.gate.access.listen = "127.0.0.1:0";
  options.end_on_close = true;
  return options;
}

class WebSocketSourceUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

// 3000 records: one a message, then three a message, then a message whose last line has no
// newline.
TEST_P(WebSocketSourceUnderEveryDirector, RecordsArriveWholeAndInOrder) {
  WebSocketRun run(listening(), GetParam());
  {
    Client client(run.port());
    int n = 0;
    for (; n < 1500; ++n)
      client.send("{\"n\": " + std::to_string(n) + "}");
    while (n < 3000) {
      std::string message;
      for (int i = 0; i < 3; ++i, ++n)
        message += "{\"n\": " + std::to_string(n) + "}" + (i < 2 ? "\n" : "");
      client.send(message);
    }
    client.close();
  }
  run.join();
  const std::vector<Value> got = run.out->tokens();
  ASSERT_EQ(got.size(), 3000u);
  for (int i = 0; i < 3000; ++i)
    ASSERT_EQ(got[static_cast<std::size_t>(i)].field("n")->as_int(), i);
  EXPECT_EQ(run.summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, WebSocketSourceUnderEveryDirector,
                         ::testing::Values("fifo/1", "qbs/2", "rr/1", "rb/2", "threaded"),
                         schedulers::testing::director_test_name);

TEST(WebSocketSource, MalformedAndOversizedLinesGoToErrorsAndTheClientGoesOn) {
  WebSocketSourceOptions options = listening();
  options.push.max_message = 64;
  WebSocketRun run(options);
  {
    Client client(run.port());
    client.send("{\"n\": 1}");
    client.send("[1, 2]");
    client.send("{\"n\": ");
    client.send("{\"pad\": \"" + std::string(100, 'x') + "\"}\n{\"n\": 2}");
    client.send("{\"n\": 3}");
    client.close();
  }
  run.join();
  EXPECT_EQ(json_of(*run.out),
            (std::vector<std::string>{R"({"n":1})", R"({"n":2})", R"({"n":3})"}));
  ASSERT_EQ(run.bad->size(), 3u);
  const std::vector<Value> bad = run.bad->tokens();
  EXPECT_EQ(bad[0].field("error")->as_string(), "expected a JSON object, got array");
  EXPECT_EQ(bad[0].field("text")->as_string(), "[1, 2]");
  EXPECT_TRUE(bad[1].field("error")->as_string().starts_with("invalid JSON at "));
  EXPECT_EQ(bad[2].field("error")->as_string(), "a line longer than 64 bytes (max_message)");
  EXPECT_TRUE(bad[0].field("peer")->as_string().starts_with("127.0.0.1:"));
  EXPECT_EQ(run.summary.actors[0].rejected, 3u);  // the run is not clean
}

TEST(WebSocketSource, CsvRecordsUnderEachClientsHeader) {
  WebSocketSourceOptions options = listening();
  options.format = RecordDecoder::Format::csv;
  options.push.limit = 3;
  options.end_on_close = false;
  WebSocketRun run(options);
  {
    Client first(run.port());
    first.send("id,name");
    first.send("1,apple\n2,pear");
    first.close();
  }
  {
    // Another client, another header; the source did not end when the first left.
    Client second(run.port());
    second.send("name,id\nplum,3");
    run.join();
  }
  EXPECT_EQ(json_of(*run.out),
            (std::vector<std::string>{R"({"id":1,"name":"apple"})", R"({"id":2,"name":"pear"})",
                                      R"({"name":"plum","id":3})"}));
}

TEST(WebSocketSource, ATokenIsRequiredWhenOneIsSet) {
  WebSocketSourceOptions options = listening();
  options.gate.access.token = "s3cret";
  WebSocketRun run(options);
  try {
    Client refused(run.port(), "/");
    ADD_FAILURE() << "a client without the token was let in";
  } catch (const beast::system_error& e) {
    EXPECT_EQ(e.code(), websocket::error::upgrade_declined);
  }
  EXPECT_EQ(http_get(run.port(), "/?token=wrong").first, 401u);
  {
    Client client(run.port(), "/?token=s3cret");
    client.send("{\"n\": 1}");
    client.close();
  }
  run.join();
  EXPECT_EQ(run.out->size(), 1u);
}

// Any page the user has open could connect to a loopback server: only loopback pages may.
TEST(WebSocketSource, PagesFromOtherSitesAreRefused) {
  WebSocketSourceOptions options = listening();
  WebSocketRun run(options);
  try {
    Client refused(run.port(), "/", "http://evil.example");
    ADD_FAILURE() << "a page from another site was let in";
  } catch (const beast::system_error& e) {
    EXPECT_EQ(e.code(), websocket::error::upgrade_declined);
  }
  {
    Client client(run.port(), "/", "http://127.0.0.1:8000");
    client.send("{\"n\": 1}");
    client.close();
  }
  run.join();
  EXPECT_EQ(run.out->size(), 1u);
}

TEST(WebSocketSource, ServesItsPageAndAnswersOtherRequests) {
  WebSocketSourceOptions options = listening();
  options.gate.page = std::make_shared<const std::string>("<html>orders</html>");
  options.push.limit = 1;
  WebSocketRun run(options);
  EXPECT_EQ(http_get(run.port(), "/"), std::make_pair(200u, std::string("<html>orders</html>")));
  EXPECT_EQ(http_get(run.port(), "/other").first, 404u);
  Client client(run.port());
  client.send("{\"n\": 1}");
  run.join();
  EXPECT_EQ(run.out->size(), 1u);
}

TEST(WebSocketSource, WithoutAPageAPlainRequestIsToldToUpgrade) {
  WebSocketRun run(listening());
  EXPECT_EQ(http_get(run.port(), "/").first, 426u);
  Client client(run.port());
  client.close();
  run.join();
}

TEST(WebSocketSource, ClientsBeyondTheLimitAreRefusedAndReported) {
  WebSocketSourceOptions options = listening();
  options.gate.max_connections = 1;
  WebSocketRun run(options);
  Client first(run.port());
  first.send("{\"n\": 1}");
  ASSERT_TRUE(eventually([&] { return run.out->size() == 1; }));
  EXPECT_THROW(Client second(run.port()), beast::system_error);
  first.close();
  run.join();
  EXPECT_EQ(run.summary.actors[0].warnings, 1u);
}

// A source that ends (here at its limit) tells the clients still connected that it goes away
// (a close frame, 1001) rather than cutting their connections.
TEST(WebSocketSource, ClientsAreToldWhenTheSourceEnds) {
  WebSocketSourceOptions options = listening();
  options.end_on_close = false;
  options.push.limit = 2;
  WebSocketRun run(options);
  Client client(run.port());
  client.send("{\"n\": 1}\n{\"n\": 2}");
  EXPECT_EQ(client.close_code(), 1001);
  run.join();
  EXPECT_EQ(run.out->size(), 2u);
}

// A client the source stops reading (its queue is full) is not idle: held back for several times
// the idle limit, it stays connected and loses nothing.
TEST(WebSocketSource, AClientHeldBackByAFullQueueIsNotLetGoAsIdle) {
  constexpr int kRecords = 100000;  // beyond the connection's capacity: the source's queue fills
  WebSocketSourceOptions options = listening();
  options.gate.ping_after = 100 * kMillisecond;  // let go after 200 ms of silence
  options.push.max_pending = 100;
  std::atomic<bool> open{false};
  WebSocketRun run(options, "fifo/2", std::make_unique<testing::Blocker>(open));
  {
    Client client(run.port());
    // Many small messages: each frame tells the server that the client is alive.
    std::thread sender([&] {
      try {
        for (int i = 0; i < kRecords; i += 100) {
          std::string message;
          for (int j = i; j < i + 100; ++j)
            message += "{\"n\": " + std::to_string(j) + "}\n";
          client.send(message);
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << "the server let the client go: " << e.what();
      }
    });
    EXPECT_TRUE(eventually([&] { return run.source->pending() >= 100; }));
    std::this_thread::sleep_for(std::chrono::seconds(1));  // five times the idle limit
    open = true;
    sender.join();
    // Closed at once: the server reads what is still on the way before the close frame.
    client.close();
  }
  EXPECT_TRUE(eventually([&] { return run.out->size() == kRecords; }));
  run.join();
  EXPECT_EQ(run.out->size(), static_cast<std::size_t>(kRecords));
  EXPECT_EQ(run.summary.incomplete(), 0u);
}

TEST(WebSocketSource, ASlowConsumerKeepsTheQueueBounded) {
  testing::expect_a_slow_consumer_bounds_the_queue<WebSocketSource>(
      listening(), [](unsigned short port, const std::vector<std::string>& lines) {
        Client client(port);
        for (std::size_t i = 0; i < lines.size(); i += 100) {
          std::string message;
          for (std::size_t j = i; j < i + 100 && j < lines.size(); ++j)
            message += lines[j];
          client.send(message);
        }
        client.close();
      });
}

// ---- websocket_sink ----

WebSocketSinkOptions sink_listening() {
  WebSocketSinkOptions options;
  options.gate.access.listen = "127.0.0.1:0";
  return options;
}

// Runs `count` numbers into a websocket_sink once `clients` clients are connected; `connect`
// (on its own thread) connects them, calls its `ready` and reads.
template <class Connect>
RunSummary run_sink(WebSocketSinkOptions options, int count, std::size_t pad,
                    const std::string& director, std::size_t clients, Connect connect) {
  auto owned = std::make_unique<WebSocketSink>(std::move(options));
  WebSocketSink* sink = owned.get();
  std::atomic<bool> gate{false};
  std::thread reader([&] {
    EXPECT_TRUE(eventually([&] { return sink->port() != 0; }));
    connect(*sink, [&] {
      EXPECT_TRUE(eventually([&] { return sink->peers() == clients; }));
      gate = true;
    });
  });
  RunSummary summary = testing::run_into(std::move(owned), count, pad, director, &gate);
  reader.join();
  return summary;
}

class WebSocketSinkUnderEveryDirector : public ::testing::TestWithParam<std::string> {};

// Two clients each get every record, whole and in order, one message each.
TEST_P(WebSocketSinkUnderEveryDirector, EveryClientGetsEveryRecordInOrder) {
  std::vector<std::vector<std::string>> got(2);
  RunSummary summary =
      run_sink(sink_listening(), 2000, 0, GetParam(), 2, [&](WebSocketSink& sink, auto ready) {
        Client first(sink.port()), second(sink.port());
        ready();
        for (int i = 0; i < 2000; ++i) {
          got[0].push_back(first.receive());
          got[1].push_back(second.receive());
        }
        // At the end of the run each is told so with a close frame (1000: normal).
        EXPECT_EQ(first.close_code(), 1000);
        EXPECT_EQ(second.close_code(), 1000);
      });
  for (const auto& messages : got) {
    ASSERT_EQ(messages.size(), 2000u);
    for (int i = 0; i < 2000; ++i)
      ASSERT_EQ(messages[static_cast<std::size_t>(i)],
                "{\"n\":" + std::to_string(i) + ",\"pad\":\"\"}");
  }
  EXPECT_EQ(summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, WebSocketSinkUnderEveryDirector,
                         ::testing::Values("fifo/1", "qbs/2", "rr/1", "rb/2", "threaded"),
                         schedulers::testing::director_test_name);

// A client that never reads: once max_pending messages wait for it, it is let go; what it
// missed is reported as dropped and the run is not clean. The client that reads gets all.
TEST(WebSocketSink, AClientThatDoesNotReadIsLetGoAndWhatItMissedIsReported) {
  WebSocketSinkOptions options = sink_listening();
  options.sink.max_pending = 50;
  options.sink.linger = 100 * kMillisecond;
  RunSummary summary =
      run_sink(options, 20000, 1000, "fifo/1", 1, [&](WebSocketSink& sink, auto ready) {
        Client idle(sink.port());
        ready();
        EXPECT_TRUE(eventually([&] { return sink.peers() == 0; }));  // never read
      });
  EXPECT_GT(summary.incomplete(), 0u);
}

// The sinks of a run flush side by side from the end of input, not one after the other in their
// wrapups: `slow`'s client reads nothing until `fast`'s client was told (a close frame) that its
// stream is over (20 MB: more than the sockets' buffers hold). Were the flushes serial, `slow`'s
// wrapup (first: it is the first actor) would wait for its client, and `fast`'s close would not
// come.
TEST(WebSocketSink, TheSinksOfARunFlushSideBySide) {
  constexpr int kRecords = 20000;
  Workflow workflow("w");
  std::atomic<bool> gate{false};
  WebSocketSinkOptions patient = sink_listening();
  patient.sink.linger = 120 * kSecond;
  auto add_sink = [&](const std::string& name, WebSocketSinkOptions options) {
    workflow.add(name + "_numbers", std::make_unique<testing::Numbers>(kRecords, 1000, &gate));
    ActorId id = workflow.add(name, std::make_unique<WebSocketSink>(std::move(options)));
    workflow.connect(name + "_numbers", name);
    return static_cast<WebSocketSink*>(workflow.actor(id).actor.get());
  };
  WebSocketSink* slow = add_sink("slow", patient);
  WebSocketSink* fast = add_sink("fast", patient);
  RunSummary summary;
  std::thread run([&] {
    auto director = schedulers::testing::director_named("fifo/1");
    RealClock clock;
    summary = run_workflow(workflow, *director, clock);
  });
  ASSERT_TRUE(eventually([&] { return slow->port() != 0 && fast->port() != 0; }));
  Client slow_client(slow->port());
  std::atomic<int> code{0};
  std::thread fast_reader([&] {
    Client client(fast->port());
    EXPECT_TRUE(eventually([&] { return fast->peers() == 1 && slow->peers() == 1; }));
    gate = true;
    for (int i = 0; i < kRecords; ++i)
      client.receive();
    code = client.close_code();
  });
  EXPECT_TRUE(eventually([&] { return code.load() != 0; }));
  for (int i = 0; i < kRecords; ++i)  // lets the slow sink's flush end, whatever happened
    slow_client.receive();
  EXPECT_EQ(slow_client.close_code(), 1000);
  fast_reader.join();
  run.join();
  EXPECT_EQ(code.load(), 1000);
  EXPECT_EQ(summary.incomplete(), 0u);
}

TEST(WebSocketSink, ServesItsPage) {
  WebSocketSinkOptions options = sink_listening();
  options.gate.page = std::make_shared<const std::string>("<html>notices</html>");
  RunSummary summary = run_sink(options, 1, 0, "fifo/1", 1, [&](WebSocketSink& sink, auto ready) {
    EXPECT_EQ(http_get(sink.port(), "/").second, "<html>notices</html>");
    Client client(sink.port());
    ready();
    EXPECT_EQ(client.receive(), R"({"n":0,"pad":""})");
  });
  EXPECT_EQ(summary.incomplete(), 0u);
}

std::string param_error(ActorType type, std::map<std::string, Value> values) {
  try {
    type.factory(Params(std::move(values), {}, ""));
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return "";
}

TEST(WebSocketActors, ParametersSayWhatIsWrong) {
  for (ActorType type : {websocket_source_type(), websocket_sink_type()}) {
    EXPECT_EQ(param_error(type, {{"listen", "0.0.0.0:9000"}}),
              "listen: listening on 0.0.0.0:9000, reachable from other machines, needs a token "
              "(token: ...)");
    EXPECT_EQ(param_error(type, {{"listen", "0.0.0.0:9000"}, {"token", "t"}}), "");
    EXPECT_EQ(param_error(type, {{"listen", "127.0.0.1:0"}, {"page", "/no/such/page.html"}}),
              "page: cannot open '/no/such/page.html'");
    EXPECT_EQ(param_error(type, {{"listen", "127.0.0.1:0"}, {"max_pending", 0}}),
              "max_pending: max_pending must be at least 1");
  }
}

}  // namespace
}  // namespace cwf::net
