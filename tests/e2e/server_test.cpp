// `cwf serve` as users meet it: a real server process on a loopback port, driven through the
// REST API and the client commands (cwf register, list, status, pause, resume, stop, remove).
// Registration errors, a restart that brings the workflows back, /metrics as Prometheus text,
// concurrent clients, a token, and requests that are bad or too large.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <thread>

#include "process.hpp"
#include "runtime/values/value_json.hpp"
#include "server_fixture.hpp"
#include "tests/eventually.hpp"
#include "tests/runtime/scratch_folder_test_base.hpp"

namespace cwf::testing {
namespace {

TEST_F(Server, RegistersListsPausesResumesStopsAndRemovesWorkflowsThroughTheClient) {
  start();
  ProcessResult none = client({"list"});
  ASSERT_EQ(none.status, 0) << none.err;
  EXPECT_EQ(none.out, "no workflows\n");

  const std::string file = ticking_workflow("ticker", (dir_ / "ticks.jsonl").string());
  ProcessResult registered = client({"register", file, "--priority", "7"});
  ASSERT_EQ(registered.status, 0) << registered.err;
  EXPECT_EQ(registered.out, "ticker: running\n");
  ASSERT_TRUE(eventually([&] { return ticks_of("ticker") > 10; }));

  ProcessResult list = client({"list"});
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_TRUE(std::regex_search(list.out, std::regex("ticker +running +7 ")));
  ProcessResult status = client({"status", "ticker"});
  ASSERT_EQ(status.status, 0) << status.err;
  EXPECT_NE(status.out.find("ticker: running, priority 7"), std::string::npos) << status.out;
  EXPECT_TRUE(std::regex_search(status.out, std::regex("\nticks +[0-9]+ ")));
  EXPECT_TRUE(std::regex_search(status.out, std::regex("\nout +[0-9]+ ")));

  ProcessResult paused = client({"pause", "ticker"});
  ASSERT_EQ(paused.status, 0) << paused.err;
  EXPECT_EQ(paused.out, "ticker: paused\n");
  // Paused, nothing fires: the count settles (the figures are refreshed every 100 ms).
  std::int64_t at_pause = -1;
  EXPECT_TRUE(eventually([&] {
    std::int64_t before = ticks_of("ticker");
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    at_pause = ticks_of("ticker");
    return at_pause == before;
  }));

  ProcessResult resumed = client({"resume", "ticker"});
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(resumed.out, "ticker: running\n");
  EXPECT_TRUE(eventually([&] { return ticks_of("ticker") > at_pause; }));

  ProcessResult stopped = client({"stop", "ticker"});
  ASSERT_EQ(stopped.status, 0) << stopped.err;
  EXPECT_TRUE(eventually([&] { return state_of("ticker") == "stopped"; }));
  // Stopped by draining: every tick generated is in the file.
  EXPECT_EQ(static_cast<std::int64_t>(lines_of(read_file((dir_ / "ticks.jsonl").string())).size()),
            ticks_of("ticker"));

  ProcessResult removed = client({"remove", "ticker"});
  ASSERT_EQ(removed.status, 0) << removed.err;
  EXPECT_EQ(removed.out, "ticker: removing\n");
  EXPECT_EQ(http_call(url_, "GET", "/api/v1/workflows/ticker").status, 404);
  ProcessResult gone = client({"pause", "ticker"});
  EXPECT_EQ(gone.status, 1);
  EXPECT_NE(gone.err.find("no workflow named 'ticker' is registered"), std::string::npos)
      << gone.err;
  // The name is free again once the folder is deleted.
  EXPECT_TRUE(eventually([&] { return client({"register", file}).status == 0; }));
  EXPECT_EQ(stop(), 0);
}

TEST_F(Server, ARegistrationThatDoesNotLoadIsRefusedWithFileLineAndColumn) {
  start();
  const fs::path bad = dir_ / "bad.yaml";
  std::ofstream(bad) << "name: bad\nactors:\n  a: {type: generatr, count: 3}\n";
  ProcessResult refused = client({"register", bad.string()});
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find(bad.string() + ":3:"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("generator"), std::string::npos) << "did you mean: " << refused.err;
  // Through the API: a 400 with the place in JSON.
  ApiResponse answer = http_call(
      url_, "POST", "/api/v1/workflows",
      Value::record({{"yaml", Value(read_file(bad.string()))}, {"file", Value("bad.yaml")}})
          .to_json());
  EXPECT_EQ(answer.status, 400);
  Value error = parse_json(answer.body);
  EXPECT_EQ(error.field("file")->as_string(), "bad.yaml");
  EXPECT_EQ(error.field("line")->as_int(), 3);
  EXPECT_GT(error.field("column")->as_int(), 0);
  // Not JSON, no YAML, a name taken twice.
  EXPECT_EQ(http_call(url_, "POST", "/api/v1/workflows", "{not json").status, 400);
  EXPECT_EQ(http_call(url_, "POST", "/api/v1/workflows", "{\"file\": \"x.yaml\"}").status, 400);
  const std::string file = ticking_workflow("twice", (dir_ / "twice.jsonl").string());
  ASSERT_EQ(client({"register", file}).status, 0);
  ProcessResult again = client({"register", file});
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.err.find("is registered already"), std::string::npos) << again.err;
  ProcessResult nothing = run_cwf({"list", "--server", "http://127.0.0.1:1"});
  EXPECT_EQ(nothing.status, 1);
  EXPECT_NE(nothing.err.find("no server answers at http://127.0.0.1:1"), std::string::npos)
      << nothing.err;
}

TEST_F(Server, ARestartedServerBringsItsWorkflowsBackAsTheyWereLeft) {
  start({"--checkpoint-every", "50ms"});
  const std::string running = ticking_workflow("running", (dir_ / "running.jsonl").string());
  const std::string paused = ticking_workflow("paused", (dir_ / "paused.jsonl").string());
  const std::string stopped = ticking_workflow("stopped", (dir_ / "stopped.jsonl").string());
  for (const std::string& file : {running, paused, stopped})
    ASSERT_EQ(client({"register", file}).status, 0);
  ASSERT_EQ(client({"pause", "paused"}).status, 0);
  ASSERT_EQ(client({"stop", "stopped"}).status, 0);
  ASSERT_TRUE(eventually([&] { return state_of("stopped") == "stopped"; }));
  ASSERT_TRUE(eventually([&] { return ticks_of("running") > 20; }));
  EXPECT_EQ(stop(), 0);
  const std::size_t lines_before = lines_of(read_file((dir_ / "running.jsonl").string())).size();

  start({"--checkpoint-every", "50ms"});
  EXPECT_EQ(state_of("running"), "running");
  // (Null until its run has looked at its checkpoints, a moment after the server is ready.)
  EXPECT_TRUE(eventually([&] {
    return !get("/api/v1/workflows/running").field("resumed_from_checkpoint")->is_null();
  })) << "checkpoints were taken every 50 ms for more than 200 ms";
  EXPECT_EQ(state_of("paused"), "paused");
  EXPECT_EQ(state_of("stopped"), "stopped");
  // Resumed from its checkpoint (or from the beginning if none was taken yet): the file is cut
  // back to it and written on, every tick once, in order.
  ASSERT_TRUE(eventually([&] {
    return lines_of(read_file((dir_ / "running.jsonl").string())).size() > lines_before + 20;
  }));
  std::vector<std::string> lines = lines_of(read_file((dir_ / "running.jsonl").string()));
  for (std::size_t i = 0; i < lines.size(); ++i)
    ASSERT_EQ(lines[i], "{\"tick\":" + std::to_string(i) + "}") << "line " << i + 1;
  EXPECT_EQ(stop(), 0);
}

// A server shut down ends its workflows at a checkpoint (no periodic one is due here): started
// again, they go on from it, a window still filling included, so that even standard output,
// which cannot be cut back, shows every window once and no partial one.
TEST_F(Server, AShutdownEndsEachWorkflowAtACheckpointThatTheRestartGoesOnFrom) {
  const fs::path printed = dir_ / "printed.txt";
  const fs::path file = dir_ / "sums.yaml";
  std::ofstream(file) << "name: sums\nactors:\n"
                      << "  ticks: {type: generator, interval: 5 ms, value: \"{tick: i}\"}\n"
                      << "  sums: {type: aggregate, function: sum, value: /tick}\n"
                      << "  out: {type: stdout}\n"
                      << "connections:\n"
                      << "  - {from: ticks, to: sums, window: {size: 7 tokens, step: 7 tokens}}\n"
                      << "  - sums -> out\n";
  start({"--checkpoint-every", "1h"}, "", printed);
  ASSERT_EQ(client({"register", file.string()}).status, 0);
  ASSERT_TRUE(eventually([&] { return ticks_of("sums") > 30; }));
  EXPECT_EQ(stop(), 0);
  start({"--checkpoint-every", "1h"}, "", printed);
  EXPECT_TRUE(eventually([&] {
    return !get("/api/v1/workflows/sums").field("resumed_from_checkpoint")->is_null();
  })) << "the shutdown wrote none";
  const std::size_t before = lines_of(read_file(printed.string())).size();
  ASSERT_GE(before, 4u) << "30 ticks make 4 windows";
  // (Standard output into a file is written in blocks: counted once the server has ended.)
  ASSERT_TRUE(eventually([&] { return ticks_of("sums") > std::int64_t(before) * 7 + 60; }));
  EXPECT_EQ(stop(), 0);
  std::vector<std::string> lines = lines_of(read_file(printed.string()));
  ASSERT_GT(lines.size(), before + 5);
  for (std::size_t j = 0; j < lines.size(); ++j)
    ASSERT_EQ(lines[j], "{\"sum\":" + std::to_string(49 * j + 21) + ",\"count\":7}")
        << "window " << j + 1;
}

// `cwf view` against a real server: the events of one connection matching a predicate, as they
// flow, until --count lines or the end of the workflow's run; errors for what is not there.
TEST_F(Server, CwfViewShowsTheMatchingEventsOfAConnectionAsTheyFlow) {
  start();
  const fs::path file = dir_ / "numbers.yaml";
  std::ofstream(file) << "name: numbers\nactors:\n"
                      << "  n: {type: generator, interval: 2 ms, count: 1500, value: \"{n: i}\"}\n"
                      << "  odd: {type: filter, where: \"/n % 2 == 1\"}\n"
                      << "  out: {type: jsonl_sink, path: " << (dir_ / "numbers.jsonl").string()
                      << "}\n"
                      << "connections:\n  - n -> odd\n  - odd -> out\n";
  ASSERT_EQ(client({"register", file.string()}).status, 0);
  ProcessResult five =
      client({"view", "numbers", "odd->out", "--where", "/n % 5 == 0", "--count", "5"});
  ASSERT_EQ(five.status, 0) << five.err;
  std::vector<std::string> lines = lines_of(five.out);
  ASSERT_EQ(lines.size(), 5u) << five.out;
  std::int64_t previous = -1;
  for (const std::string& line : lines) {
    Value event = parse_json(line);
    EXPECT_EQ(event.field("actor")->as_string(), "odd");
    EXPECT_EQ(event.field("to")->as_string(), "out.in");
    const std::int64_t n = event.field("value")->field("n")->as_int();
    EXPECT_EQ(n % 10, 5) << line;
    if (previous >= 0) {
      EXPECT_EQ(n, previous + 10) << "none missed";
    }
    previous = n;
  }
  // The client left: the server closed its view.
  EXPECT_TRUE(eventually(
      [&] { return get("/api/v1/workflows/numbers").field("views_open")->as_int() == 0; }));
  // Without --count, until the run ends (1500 events at 2 ms: 3 s at most).
  ProcessResult all = client({"view", "numbers", "n", "odd"});
  EXPECT_EQ(all.status, 0) << all.err;
  EXPECT_NE(all.err.find("numbers's run ended"), std::string::npos) << all.err;
  const std::vector<std::string> rest = lines_of(all.out);
  ASSERT_FALSE(rest.empty());
  EXPECT_EQ(parse_json(rest.back()).field("value")->field("n")->as_int(), 1499);

  ProcessResult ended = client({"view", "numbers", "n->odd"});
  EXPECT_EQ(ended.status, 1);
  EXPECT_NE(ended.err.find("workflow 'numbers' is finished: there is nothing to view"),
            std::string::npos)
      << ended.err;
  ProcessResult unknown = client({"view", "nothing", "a->b"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.err.find("no workflow named 'nothing' is registered"), std::string::npos)
      << unknown.err;
  EXPECT_EQ(client({"view", "numbers"}).status, 2);
}

// A case cancelled through the API (CWP4) as the workflow's cancel actor would: from then on,
// the case's events are dropped in the actor's scope; the rest flows on.
TEST_F(Server, CwfCancelCancelsACaseOfARunningWorkflow) {
  start();
  const fs::path output = dir_ / "orders.jsonl";
  const fs::path file = dir_ / "orders.yaml";
  std::ofstream(file)
      << "name: orders\nactors:\n"
      << "  orders: {type: generator, interval: 2 ms, value: \"{order: i % 4, n: i}\"}\n"
      << "  none: {type: filter, where: \"false\"}\n"
      << "  cancel: {type: cancel, key: /order, scope: [out]}\n"
      << "  out: {type: jsonl_sink, path: " << output.string() << "}\n"
      << "connections:\n  - orders -> out\n  - orders -> none\n"
      << "  - none -> cancel\n";
  ASSERT_EQ(client({"register", file.string()}).status, 0);
  ASSERT_TRUE(eventually([&] { return ticks_of("orders") > 40; }));
  ProcessResult cancelled = client({"cancel", "orders", "--key", "2"});
  ASSERT_EQ(cancelled.status, 0) << cancelled.err;
  EXPECT_EQ(cancelled.out, "orders: key 2 cancelled\n");
  const std::int64_t at = ticks_of("orders");
  ASSERT_TRUE(eventually([&] { return ticks_of("orders") > at + 300; }));
  ASSERT_EQ(client({"stop", "orders"}).status, 0);
  ASSERT_TRUE(eventually([&] { return state_of("orders") == "stopped"; }));
  std::vector<std::string> lines = lines_of(read_file(output.string()));
  std::size_t last_of_2 = 0, seen_2 = 0;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (parse_json(lines[i]).field("order")->as_int() == 2) {
      last_of_2 = i;
      ++seen_2;
    }
  EXPECT_GT(seen_2, 5u) << "order 2 flowed before it was cancelled";
  EXPECT_GT(lines.size() - last_of_2, 200u) << "none of order 2 once cancelled";
  Value out =
      *get("/api/v1/workflows/orders").field("actors")->as_array().back().field("cancelled");
  EXPECT_GT(out.as_int(), 50);

  ProcessResult wrong = client({"cancel", "orders", "--wave", "1#2"});
  EXPECT_EQ(wrong.status, 1) << "stopped: " << wrong.err;
  EXPECT_EQ(client({"cancel", "orders"}).status, 2);
}

// `cwf set` through a real server: the change is applied and said; what cannot change or does
// not load is refused with the reason.
TEST_F(Server, CwfSetChangesAChangeableParameterOfARunningWorkflow) {
  start();
  const fs::path file = dir_ / "parity.yaml";
  std::ofstream(file) << "name: parity\nactors:\n"
                      << "  n: {type: generator, interval: 2 ms, value: \"{n: i}\"}\n"
                      << "  f: {type: filter, where: \"/n % 2 == 0\"}\n"
                      << "  out: {type: jsonl_sink, path: " << (dir_ / "parity.jsonl").string()
                      << "}\nconnections:\n  - n -> f\n  - f -> out\n";
  ASSERT_EQ(client({"register", file.string()}).status, 0);
  ProcessResult set = client({"set", "parity", "f.where=/n % 2 == 1"});
  ASSERT_EQ(set.status, 0) << set.err;
  EXPECT_EQ(set.out, "parity: f.where=/n % 2 == 1\n");
  ProcessResult odd = client({"view", "parity", "f->out", "--count", "3"});
  ASSERT_EQ(odd.status, 0) << odd.err;
  for (const std::string& line : lines_of(odd.out))
    EXPECT_EQ(parse_json(line).field("value")->field("n")->as_int() % 2, 1) << line;
  ProcessResult fixed = client({"set", "parity", "n.interval=1 ms"});
  EXPECT_EQ(fixed.status, 1);
  EXPECT_NE(fixed.err.find("'interval' of generator cannot be changed while the workflow runs"),
            std::string::npos)
      << fixed.err;
  EXPECT_EQ(client({"set", "parity", "f.where=/n >"}).status, 2);
  EXPECT_EQ(client({"set", "parity"}).status, 2);
  // The scheduling policy too (the file asks for none: fifo).
  ProcessResult policy = client({"set", "parity", "director.scheduler=qbs"});
  ASSERT_EQ(policy.status, 0) << policy.err;
  EXPECT_EQ(policy.out, "parity: director.scheduler=qbs\n");
  EXPECT_EQ(client({"set", "parity", "director.batch=0"}).status, 2);
}

TEST_F(Server, CwfPriorityRanksAWorkflowOnTheSharedWorkers) {
  start({"--workers", "3"});
  ASSERT_EQ(client({"register", ticking_workflow("ranked", (dir_ / "r.jsonl").string())}).status,
            0);
  ProcessResult changed = client({"priority", "ranked", "9"});
  ASSERT_EQ(changed.status, 0) << changed.err;
  EXPECT_EQ(changed.out, "ranked: priority 9\n");
  ProcessResult list = client({"list"});
  ASSERT_EQ(list.status, 0);
  EXPECT_NE(list.out.find(" 9 "), std::string::npos) << list.out;
  const std::string metrics = http_call(url_, "GET", "/metrics").body;
  EXPECT_NE(metrics.find("\ncwf_shared_workers 3\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("\ncwf_workflow_priority{workflow=\"ranked\"} 9\n"), std::string::npos)
      << metrics;
  EXPECT_EQ(client({"priority", "ranked", "high"}).status, 2);
  EXPECT_EQ(client({"priority", "ranked", "1.5"}).status, 2);
  EXPECT_EQ(client({"priority", "ghost", "1"}).status, 1);
}

// Every sample line of the exposition: name{labels} value.
const std::regex kSample(R"(([a-z_]+)(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? -?[0-9.e+-]+)");

TEST_F(Server, MetricsAreValidPrometheusTextAndTheCountersGrow) {
  start();
  ASSERT_EQ(client({"register", ticking_workflow("metered", (dir_ / "m.jsonl").string())}).status,
            0);
  auto firings = [&] {
    ApiResponse answer = http_call(url_, "GET", "/metrics");
    EXPECT_EQ(answer.status, 200);
    EXPECT_EQ(answer.content_type, "text/plain; version=0.0.4; charset=utf-8");
    std::int64_t found = -1;
    for (const std::string& line : lines_of(answer.body)) {
      if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) continue;
      EXPECT_TRUE(std::regex_match(line, kSample)) << line;
      const std::string prefix = "cwf_actor_firings_total{workflow=\"metered\",actor=\"ticks\"} ";
      if (line.starts_with(prefix)) found = std::stoll(line.substr(prefix.size()));
    }
    return found;
  };
  std::int64_t first = firings();
  EXPECT_GE(first, 0);
  EXPECT_TRUE(eventually([&] { return firings() > first; }));
}

TEST_F(Server, ConcurrentClientsAreAllAnswered) {
  start();
  ASSERT_EQ(client({"register", ticking_workflow("busy", (dir_ / "b.jsonl").string())}).status, 0);
  std::atomic<int> ok{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < 8; ++c)
    clients.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        ApiResponse answer = http_call(url_, "GET", i % 2 ? "/metrics" : "/api/v1/workflows/busy");
        if (answer.status == 200) ++ok;
      }
    });
  for (std::thread& t : clients)
    t.join();
  EXPECT_EQ(ok.load(), 200);
}

// The threads of process `pid` named `name` (/proc/PID/task/TID/comm).
int threads_named(pid_t pid, const std::string& name) {
  int n = 0;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string line;
    if (std::getline(comm, line) && line == name) ++n;
  }
  return n;
}

// A free loopback port (bound, then released).
std::uint16_t free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  socklen_t size = sizeof address;
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), size), 0);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size), 0);
  close(fd);
  return ntohs(address.sin_port);
}

// Connects to the loopback `port`, sends `bytes` and closes; false when no one listens yet.
bool send_to(std::uint16_t port, const std::string& bytes) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  bool sent = connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
              write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  close(fd);
  return sent;
}

// One event loop per process: the server's HTTP and a hosted workflow's sockets share the
// `cwf-io` thread (actors/net/io_loop.hpp), which serves the API before any workflow needs it.
TEST_F(Server, ServesHttpAndTheWorkflowsSocketsOnOneEventLoop) {
  start();
  const pid_t pid = server_->pid();
  EXPECT_EQ(threads_named(pid, "cwf-io"), 1);
  const std::uint16_t port = free_port();
  const fs::path file = dir_ / "listening.yaml";
  std::ofstream(file) << "name: listening\nactors:\n"
                      << "  orders: {type: tcp_source, listen: 127.0.0.1:" << port << "}\n"
                      << "  out: {type: jsonl_sink, path: " << (dir_ / "out.jsonl").string()
                      << "}\n"
                      << "connections:\n  - orders -> out\n";
  ProcessResult registered = client({"register", file.string()});
  ASSERT_EQ(registered.status, 0) << registered.err;
  ASSERT_TRUE(eventually([&] { return send_to(port, "{\"order\": 1}\n"); }));
  ASSERT_TRUE(eventually([&] { return ticks_of("listening") == 1; }));
  EXPECT_EQ(threads_named(pid, "cwf-io"), 1);
  EXPECT_EQ(state_of("listening"), "running");
}

std::string raw_exchange(const std::string& url, const std::string& bytes) {
  int port = std::stoi(url.substr(url.rfind(':') + 1));
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return "";
  }
  (void)!write(fd, bytes.data(), bytes.size());
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;)
    answer.append(buffer, static_cast<std::size_t>(n));
  close(fd);
  return answer;
}

TEST_F(Server, BadAndOversizedRequestsAreRefusedAndTheWorkflowsGoOn) {
  start();
  ASSERT_EQ(client({"register", ticking_workflow("steady", (dir_ / "s.jsonl").string())}).status,
            0);
  EXPECT_EQ(http_call(url_, "POST", "/api/v1/workflows", std::string(2 * 1024 * 1024, 'x')).status,
            413);
  EXPECT_TRUE(raw_exchange(url_, "NOT HTTP AT ALL\r\n\r\n").starts_with("HTTP/1.1 400"));
  EXPECT_TRUE(raw_exchange(url_, "GET / HTTP/1.1\r\nX: " + std::string(64 * 1024, 'a') + "\r\n\r\n")
                  .starts_with("HTTP/1.1 431"));
  EXPECT_EQ(http_call(url_, "GET", "/api/v2/nothing").status, 404);
  EXPECT_EQ(http_call(url_, "PUT", "/api/v1/workflows").status, 405);
  EXPECT_EQ(http_call(url_, "POST", "/api/v1/workflows/steady/explode").status, 404);
  EXPECT_EQ(state_of("steady"), "running");
  std::int64_t ticks = ticks_of("steady");
  EXPECT_TRUE(eventually([&] { return ticks_of("steady") > ticks; }));
}

TEST_F(Server, ATokenGuardsEveryCallButTheHealthChecks) {
  const fs::path token_file = dir_ / "token";
  std::ofstream(token_file) << "0123456789abcdef0123\n";
  start({"--token-file", token_file.string()});
  EXPECT_EQ(http_call(url_, "GET", "/healthz").status, 200);
  EXPECT_EQ(http_call(url_, "GET", "/api/v1/workflows").status, 401);
  EXPECT_EQ(http_call(url_, "GET", "/metrics").status, 401);
  EXPECT_EQ(
      http_call(url_, "GET", "/api/v1/workflows", "", std::string("wrong-token-wrong")).status,
      401);
  EXPECT_EQ(
      http_call(url_, "GET", "/api/v1/workflows", "", std::string("0123456789abcdef0123")).status,
      200);
  // The scheme's name in any case (RFC 9110 §11.1).
  const std::string lower_case =
      raw_exchange(url_,
                   "GET /api/v1/workflows HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Authorization: bearer 0123456789abcdef0123\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(lower_case.starts_with("HTTP/1.1 200 OK")) << lower_case;
  ProcessResult listed = client({"list", "--token-file", token_file.string()});
  EXPECT_EQ(listed.status, 0) << listed.err;
  // Beyond loopback only with a token.
  ProcessResult open =
      run_cwf({"serve", "--listen", "0.0.0.0:0", "--state", (dir_ / "other").string()});
  EXPECT_EQ(open.status, 2);
  EXPECT_NE(open.err.find("give it a token"), std::string::npos) << open.err;
}

}  // namespace
}  // namespace cwf::testing
