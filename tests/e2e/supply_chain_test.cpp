// The supply chain (workflows/supply_chain/supply_chain.yaml, seed 002 §4.7.1) as a user runs
// it, on free loopback ports: the load generator's customers and managers against `cwf run`
// with every order's notice back and nothing lost; the out-of-stock period changed through the
// server while it runs (the administrator of l.556); and its three pages in headless Chromium
// (a customer placing an order, the company's live view, a manager shipping from the work list).
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/websocket.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "cli/commands.hpp"
#include "headless_browser.hpp"
#include "process.hpp"
#include "runtime/values/value_json.hpp"
#include "server_fixture.hpp"
#include "tests/eventually.hpp"
#include "tests/required_dependency.hpp"

namespace cwf::testing {
namespace {

namespace fs = std::filesystem;
namespace net = boost::asio;
using tcp = net::ip::tcp;

const fs::path kFolder = fs::path(CWF_SOURCE_DIR) / "workflows" / "supply_chain";

// The workflow's endpoints, by actor, with the port the file gives each.
const std::map<std::string, std::string> kDefaultPorts = {
    {"orders", "8441"}, {"notices", "8442"}, {"north", "8443"},  {"south", "8444"},
    {"east", "8445"},   {"answers", "8446"}, {"company", "8447"}};

// Distinct free loopback ports (bound at once, then released).
std::map<std::string, unsigned short> free_ports() {
  net::io_context io;
  std::vector<tcp::acceptor> held;
  std::map<std::string, unsigned short> ports;
  for (const auto& [actor, given] : kDefaultPorts) {
    held.emplace_back(io, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
    ports[actor] = held.back().local_endpoint().port();
  }
  return ports;
}

// A copy of the workflow in `dir` listening on `ports`, its pages beside it and its logs in
// `dir`/out.
fs::path workflow_on(const fs::path& dir, const std::map<std::string, unsigned short>& ports) {
  fs::create_directories(dir / "out");
  fs::copy(kFolder / "pages", dir / "pages",
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  std::string text = read_file((kFolder / "supply_chain.yaml").string());
  for (const auto& [actor, given] : kDefaultPorts) {
    std::string from = "127.0.0.1:" + given, to = "127.0.0.1:" + std::to_string(ports.at(actor));
    auto at = text.find("listen: " + from);
    EXPECT_NE(at, std::string::npos) << actor;
    text.replace(at + 8, from.size(), to);
  }
  const fs::path file = dir / "supply_chain.yaml";
  std::ofstream(file) << text;
  return file;
}

// Sends one text message to a WebSocket server and closes.
void send_to(unsigned short port, const std::string& text) {
  net::io_context io;
  boost::beast::websocket::stream<tcp::socket> ws(io);
  tcp::resolver resolver(io);
  net::connect(ws.next_layer(), resolver.resolve("127.0.0.1", std::to_string(port)));
  ws.handshake("127.0.0.1:" + std::to_string(port), "/");
  ws.text(true);
  ws.write(net::buffer(text));
  ws.close(boost::beast::websocket::close_code::normal);
}

bool accepts(unsigned short port) {
  net::io_context io;
  tcp::socket socket(io);
  boost::system::error_code ec;
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
  return !ec;
}

std::vector<std::string> load_args(const std::map<std::string, unsigned short>& ports) {
  return {"--orders",    std::to_string(ports.at("orders")),
          "--notices",   std::to_string(ports.at("notices")),
          "--answers",   std::to_string(ports.at("answers")),
          "--warehouse", "north=" + std::to_string(ports.at("north")),
          "--warehouse", "south=" + std::to_string(ports.at("south")),
          "--warehouse", "east=" + std::to_string(ports.at("east"))};
}

struct LoadRun {
  int status = -1;
  std::string out, err;
};

LoadRun run_load(std::vector<std::string> args) {
  args.insert(args.begin(), "load");
  std::ostringstream out, err;
  LoadRun run;
  run.status = cli::supply_chain_command(args, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::path(::testing::TempDir()) /
                 ("cwf_supply_chain_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// What a jsonl file holds, one parsed record per line.
std::vector<Value> records_in(const fs::path& file) {
  std::vector<Value> records;
  for (const std::string& line : lines_of(read_file(file.string())))
    if (!line.empty()) records.push_back(parse_json(line));
  return records;
}

TEST(SupplyChain, TwentyCustomersAndThreeManagersGetEveryOrderNoticedWithNothingLost) {
  const fs::path dir = scratch("load");
  auto ports = free_ports();
  const fs::path file = workflow_on(dir, ports);
  ChildProcess workflow({CWF_EXE, "run", file.string()});
  ASSERT_TRUE(eventually([&] { return accepts(ports.at("orders")) && accepts(ports.at("east")); }));
  std::vector<std::string> args = load_args(ports);
  args.insert(args.end(), {"--for", "4s", "--customers", "20", "--rate", "2", "--out-of-stock",
                           "0.1", "--service-every", "200ms", "--grace", "60s"});
  LoadRun load = run_load(args);
  // Ctrl-C: the run drains and ends with nothing lost.
  EXPECT_EQ(workflow.stop(std::chrono::seconds(30), SIGINT), 0);
  EXPECT_EQ(load.status, 0) << load.out << load.err;
  // The summary counts what it saw: every order placed has its notice, none missing or wrong.
  EXPECT_NE(load.out.find("missing 0, wrong 0, duplicate 0"), std::string::npos) << load.out;
  std::vector<Value> notices = records_in(dir / "out" / "notices.jsonl");
  std::uint64_t orders = 0, shipped = 0, items = 0;
  for (const Value& notice : notices) {
    ++orders;
    items += static_cast<std::uint64_t>(notice.field("items")->as_int());
    shipped += static_cast<std::uint64_t>(notice.field("shipped")->as_int());
  }
  EXPECT_GT(orders, 40u);  // 20 customers placing 2 orders a second for 4 s: about 160
  EXPECT_NE(load.out.find("orders " + std::to_string(orders) + " (" + std::to_string(items) +
                          " items), notices " + std::to_string(orders)),
            std::string::npos)
      << load.out;
  EXPECT_LT(shipped, items);  // some items were reported out of stock
}

TEST(SupplyChain, TheLoadGeneratorFailsWhenNoWorkflowAnswers) {
  auto ports = free_ports();
  std::vector<std::string> args = load_args(ports);
  args.insert(args.end(), {"--for", "1s", "--customers", "1"});
  LoadRun load = run_load(args);
  EXPECT_EQ(load.status, 1) << load.out << load.err;
  EXPECT_NE(load.err.find("connect: Connection refused"), std::string::npos) << load.err;
  EXPECT_EQ(run_load({"--customers", "x"}).status, 2);
  EXPECT_NE(run_load({"--warehouse", "north"}).err.find("--warehouse expects NAME=PORT"),
            std::string::npos);
}

// Seed 002 l.547-556: "the administrator's role is to change parameters, such as window sizes";
// the out-of-stock alarm's period, changed through the server while the workflow runs.
TEST_F(Server, TheAdministratorChangesTheOutOfStockPeriodWhileTheSupplyChainRuns) {
  start();
  auto ports = free_ports();
  const fs::path file = workflow_on(dir_ / "flow", ports);
  ProcessResult registered = client({"register", file.string()});
  ASSERT_EQ(registered.status, 0) << registered.err;
  ASSERT_TRUE(
      eventually([&] { return accepts(ports.at("orders")) && accepts(ports.at("answers")); }));
  auto out_of_stock = [&](const std::string& order) {
    send_to(ports.at("orders"), R"({"customer":"ana","order":")" + order +
                                    R"(","items":[{"product":"stapler","qty":1}]})");
    send_to(ports.at("answers"), R"({"item":")" + order + R"(#0","status":"out_of_stock"})");
  };
  ProcessResult set = client({"set", "supply-chain", "stock_alarm.in.window.size=1 s"});
  ASSERT_EQ(set.status, 0) << set.err;
  out_of_stock("o1");
  std::this_thread::sleep_for(std::chrono::seconds(3));
  out_of_stock("o2");  // 3 s later: outside a 1-second period
  set = client({"set", "supply-chain", "stock_alarm.in.window.size=10 min"});
  ASSERT_EQ(set.status, 0) << set.err;
  out_of_stock("o3");  // o2 and o3 within 10 minutes: the alarm
  // Everything went through: three notices and the alarm reached their logs.
  auto events_into = [&](const std::string& actor) {
    const Value details = get("/api/v1/workflows/supply-chain");
    for (const Value& a : details.field("actors")->as_array())
      if (a.field("name")->as_string() == actor) return a.field("events_in")->as_int();
    return std::int64_t{-1};
  };
  ASSERT_TRUE(eventually([&] { return events_into("notices_log") == 3; }));
  ASSERT_TRUE(eventually([&] { return events_into("alarms_log") == 1; }));
  ASSERT_EQ(client({"stop", "supply-chain"}).status, 0);
  ASSERT_TRUE(eventually([&] {
    std::string state = state_of("supply-chain");
    return state != "running" && state != "stopping";
  }));
  std::vector<Value> alarms = records_in(dir_ / "flow" / "out" / "alarms.jsonl");
  ASSERT_EQ(alarms.size(), 1u);
  EXPECT_EQ(alarms[0].to_json(),
            R"({"kind":"alarm","product":"stapler","reports":2,"warehouses":["south"]})");
  std::vector<Value> notices = records_in(dir_ / "flow" / "out" / "notices.jsonl");
  ASSERT_EQ(notices.size(), 3u);
  for (const Value& notice : notices)
    EXPECT_EQ(notice.field("status")->as_string(), "not shipped") << notice.to_json();
}

// The three pages in a real browser.
TEST(SupplyChain, ThePagesPlaceOrdersShowTheCompanyViewAndServiceTheWorkList) {
  CWF_REQUIRE_DEPENDENCY("chromium", "chromium", chromium_installed());
  const fs::path dir = scratch("pages");
  auto ports = free_ports();
  const fs::path file = workflow_on(dir, ports);
  ChildProcess workflow({CWF_EXE, "run", file.string()});
  ASSERT_TRUE(
      eventually([&] { return accepts(ports.at("orders")) && accepts(ports.at("company")); }));
  const std::string host = "http://127.0.0.1:";

  HeadlessBrowser browser(dir / "chromium");
  // A warehouse manager ships from the work list (pens: the north warehouse only).
  browser.navigate(host + std::to_string(ports.at("north")) +
                   "/?answers=" + std::to_string(ports.at("answers")));
  ASSERT_TRUE(
      browser.wait_for("document.getElementById('work-status').dataset.state === 'open' && "
                       "document.getElementById('answers-status').dataset.state === 'open'"));
  send_to(ports.at("orders"),
          R"({"customer":"erin","order":"erin-1","items":[{"product":"pens","qty":2}]})");
  ASSERT_TRUE(browser.wait_for("document.querySelector('tr[data-item=\"erin-1#0\"]') !== null"));
  EXPECT_EQ(browser.evaluate("document.getElementById('title').textContent").as_string(),
            "Work list: north");
  browser.evaluate("document.querySelector('tr[data-item=\"erin-1#0\"] button.ship').click()");
  ASSERT_TRUE(
      browser.wait_for("document.body.dataset.answered === '1' && "
                       "document.body.dataset.pending === '0'"));
  // From now on the managers are played by the load generator (no customers), shipping
  // everything.
  LoadRun managers;
  std::jthread servicing([&] {
    std::vector<std::string> args = load_args(ports);
    args.insert(args.end(), {"--customers", "0", "--for", "25s", "--out-of-stock", "0",
                             "--service-every", "100ms"});
    managers = run_load(args);
  });

  // A customer places an order from the page and sees it shipped.
  browser.navigate(host + std::to_string(ports.at("orders")) +
                   "/?notices=" + std::to_string(ports.at("notices")));
  ASSERT_TRUE(
      browser.wait_for("document.getElementById('orders-status').dataset.state === 'open' && "
                       "document.getElementById('notices-status').dataset.state === 'open'"));
  browser.evaluate("document.getElementById('customer').value = 'carol'");
  browser.evaluate("document.getElementById('place').click()");
  EXPECT_EQ(browser.evaluate("document.getElementById('error').textContent").as_string(),
            "Choose at least one product.");
  browser.evaluate(
      "document.querySelector('input[data-product=\"ink\"]').click();"
      "document.querySelector('input[data-product=\"tape\"]').click();"
      "document.querySelector('input[data-qty=\"tape\"]').value = '3'");
  browser.evaluate("document.getElementById('place').click()");
  ASSERT_TRUE(browser.wait_for("document.querySelector('#orders tr[data-status]') !== null"));
  EXPECT_EQ(browser.evaluate("document.querySelector('#orders tbody tr').cells[1].textContent")
                .as_string(),
            "1 ink, 3 tape");
  ASSERT_TRUE(browser.wait_for(
      "document.querySelector('#orders tbody tr').dataset.status === 'shipped'", 30))
      << "no shipping notice on the customer's page";
  EXPECT_EQ(browser.evaluate("document.querySelector('#orders tbody tr').cells[1].textContent")
                .as_string(),
            "2 of 2 shipped");

  // The company manager's view: a bar per second for the orders that come in.
  browser.navigate(host + std::to_string(ports.at("company")) + "/");
  ASSERT_TRUE(browser.wait_for("document.getElementById('status').dataset.state === 'open'"));
  for (int i = 1; i <= 3; ++i)
    send_to(ports.at("orders"), R"({"customer":"dan","order":"dan-)" + std::to_string(i) +
                                    R"(","items":[{"product":"paper","qty":1}]})");
  ASSERT_TRUE(
      browser.wait_for("[...document.querySelectorAll('rect.orders')].reduce((s, r) => s + "
                       "Number(r.dataset.count), 0) >= 3",
                       30))
      << "the orders do not show on the company's chart";
  ASSERT_TRUE(browser.wait_for(
      "[...document.querySelectorAll('rect.shipments')].some(r => Number(r.dataset.count) > 0)",
      30));
  servicing.join();
  EXPECT_EQ(managers.status, 0) << managers.out << managers.err;
  // Ctrl-C ends the run with nothing lost, and the notice of the order shipped from the page is
  // in the workflow's log.
  EXPECT_EQ(workflow.stop(std::chrono::seconds(30), SIGINT), 0);
  EXPECT_NE(
      read_file((dir / "out" / "notices.jsonl").string())
          .find(R"({"customer":"erin","order":"erin-1","items":1,"shipped":1,"status":"shipped"})"),
      std::string::npos);
}

}  // namespace
}  // namespace cwf::testing
