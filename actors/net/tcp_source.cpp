#include "actors/net/tcp_source.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <list>

#include "actors/actor_type_util.hpp"
#include "actors/net/accept_connections.hpp"
#include "actors/net/connect_to.hpp"
#include "actors/net/net_params.hpp"

namespace cwf::net {

namespace asio = boost::asio;
using actors::is_set;
using asio::ip::tcp;

namespace {
constexpr std::size_t kReadChunk = 64 * 1024;
}  // namespace

// What the event loop and the actor share.
struct TcpSource::Shared final : PushEndpoint {
  Shared(TcpSourceOptions o, asio::io_context& c, ExternalWake wake)
      : PushEndpoint(c, o.push.max_pending, std::move(wake)),
        options(std::move(o)),
        acceptor(c),
        timer(c) {
    backoff.min = options.reconnect_min;
    backoff.max = options.reconnect_max;
  }

  const TcpSourceOptions options;

  // ---- the event loop's (only its thread touches these) ----
  tcp::acceptor acceptor;
  asio::steady_timer timer;  // reconnection backoff
  Backoff backoff;
  bool stopped = false;
  bool ever_connected = false;
  struct Connection;
  std::list<std::shared_ptr<Connection>> connections;

  void accept(const std::shared_ptr<Shared>& self);
  void connect(const std::shared_ptr<Shared>& self);
  void reconnect_later(const std::shared_ptr<Shared>& self);
  void start_connection(const std::shared_ptr<Shared>& self, tcp::socket socket);
  void connection_closed(const std::shared_ptr<Shared>& self, const Connection* which);
  void stop() override;
};

struct TcpSource::Shared::Connection : std::enable_shared_from_this<Connection> {
  Connection(std::shared_ptr<Shared> s, tcp::socket sock)
      : shared(std::move(s)),
        socket(std::move(sock)),
        peer(std::make_shared<const std::string>(peer_of(socket))),
        decoder(shared->options.format, shared->options.push.max_message) {}

  std::shared_ptr<Shared> shared;
  tcp::socket socket;
  PeerName peer;
  RecordDecoder decoder;
  std::vector<char> chunk = std::vector<char>(kReadChunk);
  bool pushed = false;  // by the read being handled

  void read() {
    if (shared->stopped) return;
    // While the inbox is full the socket is not read (TCP slows the sender down); the source
    // resumes this once it made room.
    auto resume = [self = shared_from_this()] {
      asio::post(self->shared->context, [self] { self->read(); });
    };
    if (shared->inbox.full() && shared->inbox.wait_for_room(std::move(resume))) return;
    socket.async_read_some(asio::buffer(chunk), [self = shared_from_this()](
                                                    boost::system::error_code error,
                                                    std::size_t n) { self->received(error, n); });
  }

  void received(boost::system::error_code error, std::size_t n) {
    if (shared->stopped) return;  // what the source reported as final stays so
    pushed = false;
    auto take = [this](DecodedLine line) {
      shared->inbox.push(std::move(line), peer);
      pushed = true;
    };
    decoder.feed(std::string_view(chunk.data(), n), take);
    // The peer closed (a last line without its newline still counts) or the socket failed.
    if (error) decoder.finish(take);
    if (pushed) shared->inbox.wake();
    if (error) {
      auto keep = shared_from_this();
      shared->connection_closed(shared, this);
      return;
    }
    read();
  }
};

void TcpSource::Shared::accept(const std::shared_ptr<Shared>& self) {
  accept_connections(
      self, [self] { return self->connections.size() < self->options.max_connections; },
      [self](tcp::socket socket) { self->start_connection(self, std::move(socket)); },
      [self] { self->inbox.count_refused(); });  // the source reports it
}

void TcpSource::Shared::connect(const std::shared_ptr<Shared>& self) {
  connect_to(
      context, options.connect,
      [self](tcp::socket socket) {
        if (self->stopped) return;
        self->backoff.connected();
        self->start_connection(self, std::move(socket));
      },
      [self] {
        if (!self->stopped) self->reconnect_later(self);
      });
}

// After a failed or closed connection: again after the backoff, or the end (end_on_close).
void TcpSource::Shared::reconnect_later(const std::shared_ptr<Shared>& self) {
  if (options.end_on_close && ever_connected) return inbox.mark_ended();
  timer.expires_after(std::chrono::nanoseconds(backoff.failed()));
  timer.async_wait([self](boost::system::error_code e) {
    if (!e && !self->stopped) self->connect(self);
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
  if (stopped) return;
  if (!options.connect.empty()) {
    reconnect_later(self);
  } else if (options.end_on_close && connections.empty()) {
    // No one else comes in: a client after this one would find the source ending.
    boost::system::error_code ignored;
    acceptor.close(ignored);
    inbox.mark_ended();
  }
}

void TcpSource::Shared::stop() {
  stopped = true;
  boost::system::error_code ignored;
  acceptor.close(ignored);
  timer.cancel();
  for (auto& connection : connections)
    connection->socket.close(ignored);
  connections.clear();
  inbox.drop_waiting();
}

TcpSource::TcpSource(TcpSourceOptions options)
    : PushSource(kPorts, "tcp_source", options.push), options_(std::move(options)) {}

std::shared_ptr<PushEndpoint> TcpSource::open(asio::io_context& loop, ExternalWake wake) {
  auto shared = std::make_shared<Shared>(options_, loop, std::move(wake));
  if (!options_.listen.empty()) {
    shared->port = open_listener(shared->acceptor, options_.listen);
    asio::post(loop, [shared] { shared->accept(shared); });
  } else {
    asio::post(loop, [shared] { shared->connect(shared); });
  }
  return shared;
}

ActorType tcp_source_type() {
  return actors::make_type(
      "tcp_source",
      "Records pushed over TCP, one per line: newline-delimited JSON objects, or CSV lines under "
      "a header line. Listens for connections (listen: 127.0.0.1:9000) or connects to a server "
      "(connect: host:port, again with backoff when it fails or closes). Read on the network "
      "event loop, never on a worker; malformed and oversized lines go to `errors`.",
      [] {
        std::vector<ParamSpec> params{
            {"listen", ParamType::string, Value(),
             "HOST:PORT to accept connections on (loopback by default: 127.0.0.1:PORT)"},
            {"connect", ParamType::string, Value(), "HOST:PORT of a server to read from"},
            format_param(),
            {"max_connections", ParamType::integer, Value(64),
             "connections open at once (listen); more are closed at once and reported"},
            {"end_on_close", ParamType::boolean, Value(false),
             "end when the server closes the connection (connect) or the last client leaves "
             "(listen)"}};
        for (ParamSpec& spec : push_source_params())
          params.push_back(std::move(spec));
        return params;
      }(),
      TcpSource::kPorts,
      [](const Params& params) -> std::unique_ptr<Actor> {
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
        options.format = read_format(params);
        options.push = read_push_source_options(params);
        options.max_connections =
            static_cast<std::size_t>(positive_param(params, "max_connections"));
        options.end_on_close = params.get_bool("end_on_close");
        return std::make_unique<TcpSource>(std::move(options));
      });
}

}  // namespace cwf::net
