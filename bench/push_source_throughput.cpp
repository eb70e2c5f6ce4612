// Push source throughput: events per second that tcp_source and websocket_source take in from
// a client on loopback and emit into a sink that only counts (scheduled director, one worker,
// FIFO policy, real clock), against jsonl_source reading the same lines from a file in the same
// run. The lines are jsonl_source's benchmark lines ({id, name, price, ts, tags}); the TCP
// client writes them in 64 KiB pieces, the WebSocket client 100 lines a message. The client
// runs on its own thread, the network event loop on another: on a 2-core machine the three
// share the cores with the worker.
#include <benchmark/benchmark.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "actors/net/tcp_source.hpp"
#include "actors/net/websocket_source.hpp"
#include "actors/register.hpp"
#include "bench/count_sink.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "schedulers/fifo_scheduler.hpp"

namespace {

using namespace cwf;
namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;

constexpr int kLines = 200000;

const std::string& lines() {
  static const std::string text = [] {
    std::string t;
    for (int i = 0; i < kLines; ++i)
      t += "{\"id\":" + std::to_string(i) + ",\"name\":\"name" + std::to_string(i % 100) +
           "\",\"price\":" + std::to_string(i * 0.25) +
           ",\"ts\":" + std::to_string(1700000000 + i) + ",\"tags\":[1,2]}\n";
    return t;
  }();
  return text;
}

const std::string& jsonl_file() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    std::string p = (dir && *dir ? std::string(dir) + "/" : std::string("/tmp/")) +
                    "cwf_bench_push_sources.jsonl";
    std::ofstream(p) << lines();
    return p;
  }();
  return path;
}

using cwf_bench::CountSink;

// Runs `source` into a counting sink while `client` (given the source) sends the lines.
template <class Client>
void run(benchmark::State& state, const std::function<std::unique_ptr<Actor>()>& make_source,
         Client client) {
  for (auto _ : state) {
    Workflow workflow("bench");
    ActorId id = workflow.add("src", make_source());
    Actor* source = workflow.actor(id).actor.get();
    auto sink = std::make_unique<CountSink>();
    CountSink& counted = *sink;
    workflow.add("sink", std::move(sink));
    workflow.connect("src", "sink");
    RealClock clock;
    ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>());
    std::thread sender([&] { client(source); });
    run_workflow(workflow, director, clock);
    sender.join();
    if (counted.count != static_cast<std::size_t>(kLines)) state.SkipWithError("lost events");
  }
  state.SetItemsProcessed(state.iterations() * kLines);
}

unsigned short port_of(Actor* source) {
  auto* push = static_cast<net::PushSource*>(source);
  while (push->port() == 0)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  return push->port();
}

void BM_JsonlSourceFile(benchmark::State& state) {
  run(
      state,
      [] {
        ActorRegistry registry;
        actors::register_all(registry);
        return registry.find("jsonl_source")
            ->factory(Params({{"path", Value(jsonl_file())}}, {}, ""));
      },
      [](Actor*) {});
}
BENCHMARK(BM_JsonlSourceFile)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_TcpSource(benchmark::State& state) {
  run(
      state,
      [] {
        net::TcpSourceOptions options;
        options.listen = "127.0.0.1:0";
        options.end_on_close = true;
        return std::make_unique<net::TcpSource>(options);
      },
      [](Actor* source) {
        asio::io_context io;
        tcp::socket socket(io);
        socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_of(source)));
        const std::string& text = lines();
        for (std::size_t at = 0; at < text.size(); at += 65536)
          asio::write(socket, asio::buffer(text.data() + at,
                                           std::min<std::size_t>(65536, text.size() - at)));
      });
}
BENCHMARK(BM_TcpSource)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WebSocketSource(benchmark::State& state) {
  run(
      state,
      [] {
        net::WebSocketSourceOptions options;
        options.gate.access.listen = "127.0.0.1:0";
        options.end_on_close = true;
        return std::make_unique<net::WebSocketSource>(options);
      },
      [](Actor* source) {
        asio::io_context io;
        beast::websocket::stream<tcp::socket> ws(io);
        const unsigned short port = port_of(source);
        ws.next_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
        ws.handshake("127.0.0.1:" + std::to_string(port), "/");
        const std::string& text = lines();
        std::size_t at = 0;
        while (at < text.size()) {
          std::size_t end = at;
          for (int i = 0; i < 100 && end < text.size(); ++i)
            end = text.find('\n', end) + 1;
          ws.write(asio::buffer(text.data() + at, end - at));
          at = end;
        }
        ws.close(beast::websocket::close_code::normal);
      });
}
BENCHMARK(BM_WebSocketSource)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
