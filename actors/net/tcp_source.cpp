#include "actors/net/tcp_source.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <concurrentqueue.h>

#include <algorithm>
#include <atomic>
#include <list>
#include <mutex>

#include "actors/actor_type_util.hpp"
#include "actors/csv_source.hpp"
#include "actors/net/io_loop.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::net {

namespace asio = boost::asio;
using actors::compile_param;
using actors::is_set;
using asio::ip::tcp;

namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::size_t kShownText = 200;

// "host:port" -> its parts; throws ParamError naming `param`.
std::pair<std::string, std::string> split_address(const std::string& address,
                                                  std::string_view param) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size())
    throw ParamError(std::string(param),
                     "expected HOST:PORT, e.g. 127.0.0.1:9000, got '" + address + "'");
  return {address.substr(0, colon), address.substr(colon + 1)};
}

// `listen`'s "IP:PORT" as an endpoint; throws ParamError saying what is wrong.
tcp::endpoint listen_endpoint(const std::string& address) {
  auto [host, port] = split_address(address, "listen");
  boost::system::error_code error;
  asio::ip::address ip = asio::ip::make_address(host, error);
  if (error) throw ParamError("listen", "'" + host + "' is not an IP address");
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 ||
      std::stoi(port) > 65535)
    throw ParamError("listen", "'" + port + "' is not a port (0 to 65535)");
  return {ip, static_cast<unsigned short>(std::stoi(port))};
}

}  // namespace

// What the event loop hands the actor.
struct TcpSource::Shared {
  struct Item {
    Value record;
    std::string error;  // set: a malformed or oversized line
    std::string text;   // its beginning, with an error
    std::string peer;
  };

  // The loop outlives it: the actor holds the loop, and a loop that ends destroys the handlers
  // that hold this.
  Shared(TcpSourceOptions o, asio::io_context& c)
      : options(std::move(o)), context(c), acceptor(c), timer(c) {}

  const TcpSourceOptions options;
  asio::io_context& context;
  moodycamel::ConcurrentQueue<Item> queue;
  std::atomic<std::size_t> pending{0};
  ExternalWake wake;
  std::atomic<std::uint64_t> refused{0};
  std::atomic<bool> ended{false};  // end_on_close: no more will come
  std::atomic<unsigned short> port{0};
  std::atomic<bool> has_paused{false};  // a connection waits for room in the queue

  // ---- the event loop's (only its thread touches these) ----
  tcp::acceptor acceptor;
  asio::steady_timer timer;  // reconnection backoff
  Duration backoff = 0;
  bool stopped = false;
  bool ever_connected = false;
  struct Connection;
  std::list<std::shared_ptr<Connection>> connections;
  std::list<std::shared_ptr<Connection>> paused;  // waiting for room in the queue

  void push(Item item) {
    pending.fetch_add(1, std::memory_order_relaxed);
    queue.enqueue(std::move(item));
  }
  bool full() const { return pending.load(std::memory_order_relaxed) >= options.max_pending; }

  void accept(const std::shared_ptr<Shared>& self);
  void connect(const std::shared_ptr<Shared>& self);
  void start_connection(const std::shared_ptr<Shared>& self, tcp::socket socket);
  void connection_closed(const std::shared_ptr<Shared>& self, const Connection* which);
  void resume_paused();
  void stop();
};

struct TcpSource::Shared::Connection : std::enable_shared_from_this<Connection> {
  Connection(std::shared_ptr<Shared> s, tcp::socket sock)
      : shared(std::move(s)), socket(std::move(sock)) {
    boost::system::error_code ignored;
    auto remote = socket.remote_endpoint(ignored);
    peer = ignored ? "?" : remote.address().to_string() + ":" + std::to_string(remote.port());
  }

  std::shared_ptr<Shared> shared;
  tcp::socket socket;
  std::string peer;
  std::string line;       // the line being received
  bool skipping = false;  // the rest of an oversized line
  std::vector<char> chunk = std::vector<char>(kReadChunk);
  JsonParser json;
  actors::CsvSplitter csv;
  const Schema* header = nullptr;  // CSV: the field names, from the first line
  bool pushed = false;             // by the read being handled

  void read() {
    if (shared->stopped) return;
    if (shared->full()) {
      shared->paused.push_back(shared_from_this());
      shared->has_paused.store(true);
      // The source may have made room since it last looked at the flag: then it would not
      // resume this one, so the loop does.
      if (!shared->full()) asio::post(shared->context, [s = shared] { s->resume_paused(); });
      return;
    }
    socket.async_read_some(asio::buffer(chunk), [self = shared_from_this()](
                                                    boost::system::error_code error,
                                                    std::size_t n) { self->received(error, n); });
  }

  void received(boost::system::error_code error, std::size_t n) {
    pushed = false;
    for (std::size_t i = 0; i < n; ++i) {
      const char c = chunk[i];
      if (c == '\n') {
        if (!skipping) take(line);
        line.clear();
        skipping = false;
      } else if (!skipping) {
        line.push_back(c);
        if (line.size() > shared->options.max_message) {
          malformed(line, "a line longer than " + std::to_string(shared->options.max_message) +
                              " bytes (max_message)");
          line.clear();
          skipping = true;
        }
      }
    }
    if (error) {
      // The peer closed (a last line without its newline still counts) or the socket failed.
      if (!line.empty() && !skipping) take(line);
      line.clear();
    }
    if (pushed) shared->wake.wake();
    if (error) {
      auto keep = shared_from_this();
      shared->connection_closed(shared, this);
      return;
    }
    read();
  }

  void take(std::string& text) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty()) return;
    if (!shared->options.csv) {
      try {
        Value record = json.parse(text);
        if (!record.is_record())
          return malformed(text,
                           "expected a JSON object, got " + std::string(kind_name(record.kind())));
        push({std::move(record), {}, {}, {}});
      } catch (const JsonError& e) {
        malformed(text, std::string("invalid JSON at ") + e.what());
      }
      return;
    }
    if (csv.split(text) != actors::CsvSplitter::Result::ok)
      return malformed(text, "a CSV line with an unterminated or misplaced quote");
    const auto& fields = csv.fields();
    if (!header) {
      std::vector<std::string> names;
      for (const auto& field : fields)
        names.emplace_back(field.text);
      header = Schema::intern(names);
      return;
    }
    if (fields.size() != header->size())
      return malformed(text, "expected " + std::to_string(header->size()) +
                                 " fields (the header's), got " + std::to_string(fields.size()));
    std::vector<Value> slots(fields.size());
    for (std::size_t i = 0; i < fields.size(); ++i)
      actors::convert_csv_field(fields[i], actors::CsvType::infer, slots[i]);
    push({Value::record(header, std::move(slots)), {}, {}, {}});
  }

  void malformed(const std::string& text, std::string why) {
    push({Value(), std::move(why), text.substr(0, kShownText), peer});
  }
  void push(Item item) {
    shared->push(std::move(item));
    pushed = true;
  }
};

void TcpSource::Shared::accept(const std::shared_ptr<Shared>& self) {
  acceptor.async_accept([self](boost::system::error_code error, tcp::socket socket) {
    if (self->stopped || error == asio::error::operation_aborted) return;
    if (!error) {
      if (self->connections.size() >= self->options.max_connections) {
        self->refused.fetch_add(1, std::memory_order_relaxed);
        boost::system::error_code ignored;
        socket.close(ignored);
        self->wake.wake();  // the source reports it
      } else {
        self->start_connection(self, std::move(socket));
      }
    }
    self->accept(self);
  });
}

void TcpSource::Shared::connect(const std::shared_ptr<Shared>& self) {
  auto [host, port] = split_address(options.connect, "connect");
  auto resolver = std::make_shared<tcp::resolver>(context);
  resolver->async_resolve(
      host, port,
      [self, resolver](boost::system::error_code error, tcp::resolver::results_type found) {
        if (self->stopped) return;
        auto retry = [self] {
          if (self->options.end_on_close && self->ever_connected) {
            self->ended = true;
            self->wake.wake();
            return;
          }
          self->backoff = self->backoff == 0
                              ? self->options.reconnect_min
                              : std::min(self->backoff * 2, self->options.reconnect_max);
          self->timer.expires_after(std::chrono::nanoseconds(self->backoff));
          self->timer.async_wait([self](boost::system::error_code e) {
            if (!e && !self->stopped) self->connect(self);
          });
        };
        if (error) return retry();
        auto socket = std::make_shared<tcp::socket>(self->context);
        asio::async_connect(
            *socket, found,
            [self, socket, retry](boost::system::error_code e, const tcp::endpoint&) {
              if (self->stopped) return;
              if (e) return retry();
              self->backoff = 0;
              self->ever_connected = true;
              self->start_connection(self, std::move(*socket));
            });
      });
}

void TcpSource::Shared::start_connection(const std::shared_ptr<Shared>& self, tcp::socket socket) {
  ever_connected = true;
  auto connection = std::make_shared<Connection>(self, std::move(socket));
  connections.push_back(connection);
  connection->read();
}

void TcpSource::Shared::connection_closed(const std::shared_ptr<Shared>& self,
                                          const Connection* which) {
  connections.remove_if([which](const auto& c) { return c.get() == which; });
  paused.remove_if([which](const auto& c) { return c.get() == which; });
  if (stopped) return;
  if (!options.connect.empty()) {
    if (options.end_on_close) {
      ended = true;
      wake.wake();
      return;
    }
    backoff = options.reconnect_min;
    timer.expires_after(std::chrono::nanoseconds(backoff));
    timer.async_wait([self](boost::system::error_code e) {
      if (!e && !self->stopped) self->connect(self);
    });
  } else if (options.end_on_close && connections.empty()) {
    // No one else comes in: a client after this one would find the source ending.
    boost::system::error_code ignored;
    acceptor.close(ignored);
    ended = true;
    wake.wake();
  }
}

void TcpSource::Shared::resume_paused() {
  std::list<std::shared_ptr<Connection>> waiting;
  waiting.swap(paused);
  for (auto& connection : waiting)
    connection->read();  // pauses again if the queue is still full
}

void TcpSource::Shared::stop() {
  stopped = true;
  boost::system::error_code ignored;
  acceptor.close(ignored);
  timer.cancel();
  for (auto& connection : connections)
    connection->socket.close(ignored);
  connections.clear();
  paused.clear();
}

TcpSource::TcpSource(TcpSourceOptions options) : Actor(kPorts), options_(std::move(options)) {}

TcpSource::~TcpSource() {
  if (shared_) asio::post(shared_->context, [shared = shared_] { shared->stop(); });
}

unsigned short TcpSource::port() const {
  std::lock_guard lock(view_mutex_);
  return view_ ? view_->port.load() : 0;
}

std::size_t TcpSource::pending() const {
  std::lock_guard lock(view_mutex_);
  return view_ ? view_->pending.load() : 0;
}

void TcpSource::initialize(ActorContext& context) {
  if (dynamic_cast<const VirtualClock*>(&context.clock()))
    throw std::runtime_error(
        "tcp_source needs the real clock: a virtual clock does not wait for the network");
  emitted_ = 0;
  done_ = false;
  if (!loop_) loop_ = IoLoop::shared();
  shared_ = std::make_shared<Shared>(options_, loop_->context());
  shared_->wake = context.external_wake();
  if (!options_.listen.empty()) {
    const tcp::endpoint endpoint = listen_endpoint(options_.listen);  // checked by the factory
    boost::system::error_code error;
    // Bound here, so that an address in use is an error of the run's start.
    tcp::acceptor& acceptor = shared_->acceptor;
    acceptor.open(endpoint.protocol());
    acceptor.set_option(tcp::acceptor::reuse_address(true));
    acceptor.bind(endpoint, error);
    if (error)
      throw std::runtime_error("listen: cannot bind " + options_.listen + ": " + error.message());
    acceptor.listen(asio::socket_base::max_listen_connections, error);
    if (error) throw std::runtime_error("listen: " + error.message());
    shared_->port = acceptor.local_endpoint().port();
    asio::post(shared_->context, [shared = shared_] { shared->accept(shared); });
  } else {
    asio::post(shared_->context, [shared = shared_] { shared->connect(shared); });
  }
  std::lock_guard lock(view_mutex_);
  view_ = shared_;
}

void TcpSource::fire(FiringContext& context) {
  Shared& shared = *shared_;
  if (std::uint64_t refused = shared.refused.exchange(0)) {
    context.report_warning(std::to_string(refused) + " connection(s) refused: max_connections (" +
                           std::to_string(options_.max_connections) + ") were open");
  }
  Shared::Item item;
  std::int64_t taken = 0;
  while (taken < options_.batch && !done_ && shared.queue.try_dequeue(item)) {
    ++taken;
    shared.pending.fetch_sub(1, std::memory_order_relaxed);
    if (!item.error.empty()) {
      context.report_error("tcp_source: " + item.peer + ": " + item.error);
      if (context.connected(kErrors))
        context.emit(kErrors, Value::record({{"peer", Value(item.peer)},
                                             {"text", Value(item.text)},
                                             {"error", Value(item.error)}}));
      continue;
    }
    if (options_.time) {
      Value t = options_.time->evaluate(item.record);
      Timestamp time;
      std::string error;
      if (!actors::to_timestamp(t, options_.time_unit, time, error)) {
        context.report_error("tcp_source: time: " + error);
        continue;
      }
      context.set_output_time(time);
    }
    context.emit(kOut, std::move(item.record));
    if (options_.limit && ++emitted_ >= *options_.limit) done_ = true;
  }
  // Room again: the paused connections read on.
  if (!shared.full() && shared.has_paused.exchange(false))
    asio::post(shared.context, [s = shared_] { s->resume_paused(); });
  if (done_) return;
  if (taken == 0) {
    if (shared.ended.load() && shared.pending.load() == 0)
      done_ = true;
    else
      context.await_input();
  }
}

bool TcpSource::postfire(FiringContext&) {
  return !done_;
}

void TcpSource::wrapup(ActorContext& context) {
  if (!shared_) return;
  asio::post(shared_->context, [shared = shared_] { shared->stop(); });
  if (std::size_t left = shared_->pending.load())
    context.report_dropped(left, "received over TCP but not emitted before the run ended");
  {
    std::lock_guard lock(view_mutex_);
    view_.reset();
  }
  shared_.reset();
}

ActorType tcp_source_type() {
  return actors::make_type(
      "tcp_source",
      "Records pushed over TCP, one per line: newline-delimited JSON objects, or CSV lines under "
      "a header line. Listens for connections (listen: 127.0.0.1:9000) or connects to a server "
      "(connect: host:port, again with backoff when it fails or closes). Read on the network "
      "event loop, never on a worker; malformed and oversized lines go to `errors`.",
      {{"listen", ParamType::string, Value(),
        "HOST:PORT to accept connections on (loopback by default: 127.0.0.1:PORT)"},
       {"connect", ParamType::string, Value(), "HOST:PORT of a server to read from"},
       {"format", ParamType::string, Value("jsonl"),
        "jsonl (one JSON object a line) or csv (a header line, then records)"},
       {"time", ParamType::expression, Value(),
        "expression giving each event's timestamp from its record; not set: the clock's time"},
       {"time_unit", ParamType::string, Value("s"), "unit of numeric times: s, ms, us or ns"},
       {"max_message", ParamType::integer, Value(std::int64_t(1) << 20),
        "longest line in bytes; longer ones go to errors"},
       {"max_connections", ParamType::integer, Value(64),
        "connections open at once (listen); more are closed at once and reported"},
       {"max_pending", ParamType::integer, Value(65536),
        "records received and not emitted yet beyond which the sockets are not read"},
       {"batch", ParamType::integer, Value(256), "max records emitted per firing"},
       {"limit", ParamType::integer, Value(), "end after this many records"},
       {"end_on_close", ParamType::boolean, Value(false),
        "end when the server closes the connection (connect) or the last client leaves "
        "(listen)"}},
      TcpSource::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        TcpSourceOptions options;
        if (is_set(params, "listen"))
          options.listen = std::string(params.get("listen").as_string());
        if (is_set(params, "connect"))
          options.connect = std::string(params.get("connect").as_string());
        if (options.listen.empty() == options.connect.empty())
          throw ParamError("listen", "set exactly one of listen (HOST:PORT) and connect");
        if (!options.listen.empty())
          listen_endpoint(options.listen);
        else
          split_address(options.connect, "connect");
        const std::string format(params.get("format").as_string());
        if (format != "jsonl" && format != "csv")
          throw ParamError("format", "unknown format '" + format + "' (use jsonl or csv)");
        options.csv = format == "csv";
        if (is_set(params, "time")) options.time = compile_param(params, "time");
        options.time_unit = actors::parse_time_unit(params, "time_unit");
        auto positive = [&params](const char* name) {
          std::int64_t n = params.get_int(name);
          if (n < 1) throw ParamError(name, std::string(name) + " must be at least 1");
          return n;
        };
        options.max_message = static_cast<std::size_t>(positive("max_message"));
        options.max_connections = static_cast<std::size_t>(positive("max_connections"));
        options.max_pending = static_cast<std::size_t>(positive("max_pending"));
        options.batch = positive("batch");
        if (is_set(params, "limit")) options.limit = positive("limit");
        options.end_on_close = params.get_bool("end_on_close");
        return std::make_unique<TcpSource>(std::move(options));
      });
}

}  // namespace cwf::net
