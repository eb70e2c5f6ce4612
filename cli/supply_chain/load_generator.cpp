#include "cli/supply_chain/load_generator.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <unordered_map>

#include "runtime/values/value.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::cli::supply_chain {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Steady = std::chrono::steady_clock;

// The products of the workflow's catalog (supply_chain.yaml, `items`).
const char* const kProducts[] = {"pens",    "paper",   "ink",  "markers",
                                 "stapler", "folders", "tape", "scissors"};

std::chrono::nanoseconds span(Duration d) {
  return std::chrono::nanoseconds(d);
}

// One WebSocket client: connects, then reads every message (when it has a handler) and writes
// what it is given, one write at a time as Beast requires.
class Client : public std::enable_shared_from_this<Client> {
 public:
  using OnMessage = std::function<void(const std::string&)>;
  using OnFailure = std::function<void(const std::string&)>;

  Client(net::io_context& io, std::string name, OnFailure on_failure)
      : ws_(io), name_(std::move(name)), on_failure_(std::move(on_failure)) {}

  void open(const std::string& host, unsigned short port, OnMessage on_message,
            std::function<void()> on_open) {
    on_message_ = std::move(on_message);
    on_open_ = std::move(on_open);
    beast::error_code bad_address;
    auto address = net::ip::make_address(host, bad_address);
    if (bad_address) return fail("address " + host, bad_address);
    host_ = host + ":" + std::to_string(port);
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
    beast::get_lowest_layer(ws_).async_connect(
        tcp::endpoint(address, port), [self = shared_from_this()](beast::error_code ec) {
          if (ec) return self->fail("connect", ec);
          beast::get_lowest_layer(self->ws_).expires_never();
          self->ws_.set_option(
              websocket::stream_base::timeout::suggested(beast::role_type::client));
          self->ws_.async_handshake(self->host_, "/", [self](beast::error_code ec) {
            if (ec) return self->fail("handshake", ec);
            self->open_ = true;
            if (self->on_open_) self->on_open_();
            self->read();
            self->write_next();
          });
        });
  }

  void send(std::string text) {
    queue_.push_back(std::move(text));
    if (open_ && !writing_) write_next();
  }
  bool idle() const { return queue_.empty() && !writing_; }

  // Closes once the write in progress (if any) is done: Beast takes one write or close at a
  // time.
  void close() {
    if (closing_) return;
    closing_ = true;
    if (!open_) {
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().close(ignored);
      return;
    }
    if (!writing_) close_now();
  }

 private:
  void fail(const std::string& what, beast::error_code ec) {
    if (closing_) return;
    closing_ = true;
    open_ = false;  // nothing to close gracefully any more
    on_failure_(name_ + " (" + host_ + "): " + what + ": " + ec.message());
  }

  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) {
        if (!self->closing_ && ec != websocket::error::closed) self->fail("read", ec);
        return;
      }
      std::string text = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      if (self->on_message_) self->on_message_(text);
      self->read();
    });
  }

  void close_now() {
    ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {
      beast::error_code ignored;
      beast::get_lowest_layer(self->ws_).socket().close(ignored);
    });
  }

  void write_next() {
    if (queue_.empty() || closing_) {
      bool was_writing = writing_;
      writing_ = false;
      if (closing_ && was_writing && open_) close_now();  // close() waited for this write
      return;
    }
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec) return self->fail("write", ec);
                      self->queue_.pop_front();
                      self->write_next();
                    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  std::string name_;
  std::string host_;
  OnFailure on_failure_;
  OnMessage on_message_;
  std::function<void()> on_open_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  bool open_ = false;
  bool writing_ = false;
  bool closing_ = false;
};

struct Order {
  Steady::time_point placed;
  std::uint64_t items = 0;
  std::uint64_t shipped = 0;   // answered so
  std::uint64_t answered = 0;  // answered at all
  bool noticed = false;
};

class Load {
 public:
  Load(const LoadOptions& options, std::ostream& progress)
      : options_(options), progress_(progress), random_(options.seed), clock_(io_) {}

  LoadReport run() {
    start_ = Steady::now();
    end_ = start_ + span(options_.run_for);
    auto failed = [this](const std::string& problem) { problem_(problem); };
    notices_ = std::make_shared<Client>(io_, "notices", failed);
    notices_->open(
        options_.host, options_.notices_port, [this](const std::string& text) { on_notice(text); },
        nullptr);
    answers_ = std::make_shared<Client>(io_, "answers", failed);
    answers_->open(options_.host, options_.answers_port, nullptr, nullptr);
    for (const auto& [warehouse, port] : options_.warehouses) {
      auto manager = std::make_shared<Manager>();
      manager->name = warehouse;
      manager->work = std::make_shared<Client>(io_, "work list " + warehouse, failed);
      manager->timer = std::make_unique<net::steady_timer>(io_);
      Manager* m = manager.get();
      manager->work->open(
          options_.host, port, [this, m](const std::string& text) { on_work(*m, text); },
          [this, m] { service(*m); });
      managers_.push_back(std::move(manager));
    }
    for (int i = 0; i < options_.customers; ++i) {
      auto customer = std::make_shared<Customer>();
      customer->name = "c" + std::to_string(i + 1);
      customer->socket = std::make_shared<Client>(io_, "orders " + customer->name, failed);
      customer->timer = std::make_unique<net::steady_timer>(io_);
      Customer* c = customer.get();
      customer->socket->open(options_.host, options_.orders_port, nullptr,
                             [this, c] { schedule(*c); });
      customers_.push_back(std::move(customer));
    }
    next_report_ = start_ + span(options_.report_every);
    tick();
    io_.run();
    return report();
  }

 private:
  struct Customer {
    std::string name;
    std::shared_ptr<Client> socket;
    std::unique_ptr<net::steady_timer> timer;
    std::uint64_t placed = 0;
  };
  struct Manager {
    std::string name;
    std::shared_ptr<Client> work;
    std::unique_ptr<net::steady_timer> timer;
    std::deque<std::string> items;  // the work list: item ids, oldest first
  };

  void problem_(const std::string& problem) {
    report_.problems.push_back(problem);
    stop();
  }

  void schedule(Customer& customer) {
    std::exponential_distribution<double> gap(std::max(options_.orders_per_second, 1e-9));
    auto wait =
        std::chrono::duration_cast<Steady::duration>(std::chrono::duration<double>(gap(random_)));
    customer.timer->expires_after(wait);
    customer.timer->async_wait([this, &customer](beast::error_code ec) {
      if (ec || stopping_ || Steady::now() >= end_) return;
      place(customer);
      schedule(customer);
    });
  }

  void place(Customer& customer) {
    std::vector<const char*> products(std::begin(kProducts), std::end(kProducts));
    std::shuffle(products.begin(), products.end(), random_);
    std::size_t count = std::uniform_int_distribution<std::size_t>(1, 4)(random_);
    std::string order = customer.name + "-" + std::to_string(++customer.placed);
    std::string items;
    for (std::size_t i = 0; i < count; ++i) {
      int qty = std::uniform_int_distribution<int>(1, 5)(random_);
      items += std::string(i ? "," : "") + "{\"product\":\"" + products[i] +
               "\",\"qty\":" + std::to_string(qty) + "}";
    }
    customer.socket->send("{\"customer\":\"" + customer.name + "\",\"order\":\"" + order +
                          "\",\"items\":[" + items + "]}");
    orders_[order] = Order{Steady::now(), count};
    report_.orders += 1;
    report_.items += count;
  }

  void on_work(Manager& manager, const std::string& text) {
    try {
      Value item = parse_json(text);
      const Value* id = item.field("item");
      if (id && id->is_string()) manager.items.emplace_back(id->as_string());
    } catch (const std::exception& e) {
      report_.problems.push_back("work list " + manager.name + ": " + e.what() + ": " + text);
    }
  }

  // "The warehouse manager process would wake up in intervals and service orders from its work
  // list."
  void service(Manager& manager) {
    manager.timer->expires_after(span(options_.service_every));
    manager.timer->async_wait([this, &manager](beast::error_code ec) {
      if (ec || stopping_) return;
      std::bernoulli_distribution out(std::clamp(options_.out_of_stock, 0.0, 1.0));
      for (const std::string& id : manager.items) {
        bool shipped = !out(random_);
        answers_->send("{\"item\":\"" + id + "\",\"status\":\"" +
                       (shipped ? "shipped" : "out_of_stock") + "\"}");
        report_.answered += 1;
        if (!shipped) report_.out_of_stock += 1;
        auto order = orders_.find(id.substr(0, id.rfind('#')));
        if (order == orders_.end()) continue;  // someone else's (a browser's)
        order->second.answered += 1;
        if (shipped) order->second.shipped += 1;
      }
      manager.items.clear();
      service(manager);
    });
  }

  void on_notice(const std::string& text) {
    Value notice;
    try {
      notice = parse_json(text);
    } catch (const std::exception& e) {
      report_.problems.push_back(std::string("notices: ") + e.what() + ": " + text);
      return;
    }
    const Value* id = notice.field("order");
    auto order = id && id->is_string() ? orders_.find(std::string(id->as_string())) : orders_.end();
    if (order == orders_.end()) {
      report_.foreign += 1;
      return;
    }
    if (order->second.noticed) {
      report_.duplicates += 1;
      note_wrong("a second notice for order " + order->first + ": " + text);
      return;
    }
    order->second.noticed = true;
    report_.notices += 1;
    latencies_.push_back(
        std::chrono::duration<double, std::milli>(Steady::now() - order->second.placed).count());
    const Value* items = notice.field("items");
    const Value* shipped = notice.field("shipped");
    bool agrees = items && shipped && items->is_int() && shipped->is_int() &&
                  static_cast<std::uint64_t>(items->as_int()) == order->second.items &&
                  static_cast<std::uint64_t>(shipped->as_int()) == order->second.shipped;
    if (!agrees) {
      report_.wrong += 1;
      note_wrong("order " + order->first + " had " + std::to_string(order->second.items) +
                 " item(s), " + std::to_string(order->second.shipped) +
                 " answered shipped; its notice says " + text);
    }
  }

  void note_wrong(const std::string& what) {
    if (wrong_examples_ < 5) report_.problems.push_back(what);
    ++wrong_examples_;
  }

  // Every 100 ms: progress, and whether the run is over.
  void tick() {
    clock_.expires_after(std::chrono::milliseconds(100));
    clock_.async_wait([this](beast::error_code ec) {
      if (ec || stopping_) return;
      auto now = Steady::now();
      if (now >= next_report_) {
        progress_ << "supply-chain load: " << seconds_since_start(now) << " s: " << report_.orders
                  << " orders (" << report_.items << " items), " << report_.answered
                  << " items answered, " << report_.notices << " notices" << std::endl;
        next_report_ += span(options_.report_every);
      }
      bool everything_noticed = report_.notices == report_.orders;
      if (now >= end_ && (everything_noticed || now >= end_ + span(options_.grace))) {
        stop();
        return;
      }
      tick();
    });
  }

  long seconds_since_start(Steady::time_point now) const {
    return std::lround(std::chrono::duration<double>(now - start_).count());
  }

  void stop() {
    if (stopping_) return;
    stopping_ = true;
    clock_.cancel();
    for (auto& customer : customers_) {
      customer->timer->cancel();
      customer->socket->close();
    }
    for (auto& manager : managers_) {
      manager->timer->cancel();
      manager->work->close();
    }
    if (answers_) answers_->close();
    if (notices_) notices_->close();
  }

  LoadReport report() {
    report_.seconds = std::chrono::duration<double>(Steady::now() - start_).count();
    std::vector<std::string> missing;
    for (const auto& [id, order] : orders_)
      if (!order.noticed) missing.push_back(id);
    report_.missing = missing.size();
    if (!missing.empty()) {
      std::string first;
      for (std::size_t i = 0; i < std::min<std::size_t>(missing.size(), 5); ++i)
        first += (i ? ", " : "") + missing[i];
      report_.problems.push_back(std::to_string(missing.size()) + " order(s) got no notice, e.g. " +
                                 first);
    }
    if (!latencies_.empty()) {
      std::sort(latencies_.begin(), latencies_.end());
      auto at = [&](double q) {
        return latencies_[std::min(latencies_.size() - 1,
                                   static_cast<std::size_t>(q * latencies_.size()))];
      };
      report_.latency_p50_ms = at(0.5);
      report_.latency_p99_ms = at(0.99);
      report_.latency_max_ms = latencies_.back();
    }
    return report_;
  }

  const LoadOptions& options_;
  std::ostream& progress_;
  net::io_context io_;
  std::mt19937_64 random_;
  net::steady_timer clock_;
  Steady::time_point start_, end_, next_report_;
  std::shared_ptr<Client> notices_, answers_;
  std::vector<std::shared_ptr<Customer>> customers_;
  std::vector<std::shared_ptr<Manager>> managers_;
  std::map<std::string, Order> orders_;
  std::vector<double> latencies_;
  LoadReport report_;
  std::size_t wrong_examples_ = 0;
  bool stopping_ = false;
};

}  // namespace

LoadReport run_load(const LoadOptions& options, std::ostream& progress) {
  return Load(options, progress).run();
}

}  // namespace cwf::cli::supply_chain
