#include "actors/net/tcp_sink.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <deque>
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
// Lines handed over by one firing, written with one call.
struct Batch {
  std::shared_ptr<const std::string> text;
  std::size_t lines = 0;
};
}  // namespace

struct TcpSink::Shared final : SinkEndpoint {
  Shared(TcpSinkOptions o, asio::io_context& c)
      : SinkEndpoint(c), options(std::move(o)), acceptor(c), timer(c) {
    backoff.min = options.reconnect_min;
    backoff.max = options.reconnect_max;
  }

  const TcpSinkOptions options;

  // ---- the event loop's (only its thread touches these) ----
  tcp::acceptor acceptor;
  asio::steady_timer timer;  // reconnection backoff
  Backoff backoff;
  bool stopped = false;
  std::shared_ptr<const std::string> header;  // CSV: each peer's first line
  std::deque<Batch> backlog;                  // connect: while no connection is up
  std::size_t backlog_lines = 0;
  struct Peer;
  std::list<std::shared_ptr<Peer>> peers;

  void send(const std::shared_ptr<Shared>& self, Batch batch);
  void to_backlog(Batch batch, bool front);
  void accept(const std::shared_ptr<Shared>& self);
  void connect(const std::shared_ptr<Shared>& self);
  void reconnect_later(const std::shared_ptr<Shared>& self);
  void start_peer(const std::shared_ptr<Shared>& self, tcp::socket socket);
  void peer_closed(const std::shared_ptr<Shared>& self, Peer* which);
  void stop() override;
};

struct TcpSink::Shared::Peer : std::enable_shared_from_this<Peer> {
  Peer(std::shared_ptr<Shared> s, tcp::socket sock)
      : shared(std::move(s)), socket(std::move(sock)) {}

  std::shared_ptr<Shared> shared;
  tcp::socket socket;
  std::deque<Batch> queue;
  std::size_t lines = 0;  // in queue
  bool writing = false;
  bool header_sent = false;
  bool gone = false;
  char ignored_byte = 0;

  // A batch larger than max_pending still goes to a peer with nothing waiting.
  bool has_room_for(const Batch& batch) const {
    return lines == 0 || lines + batch.lines <= shared->options.sink.max_pending;
  }
  void enqueue(Batch batch) {
    if (shared->header && !header_sent) {
      queue.push_back({shared->header, 0});
      header_sent = true;
    }
    lines += batch.lines;
    shared->queued += batch.lines;
    queue.push_back(std::move(batch));
    write();
  }
  void write() {
    if (writing || queue.empty() || gone) return;
    writing = true;
    // The handler holds the text: the queue may be cleared while the write is in flight.
    std::shared_ptr<const std::string> text = queue.front().text;
    asio::async_write(socket, asio::buffer(*text),
                      [self = shared_from_this(), text](boost::system::error_code error,
                                                        std::size_t) { self->written(error); });
  }
  void written(boost::system::error_code error) {
    writing = false;
    if (gone) return;
    if (error) return shared->peer_closed(shared, this);
    lines -= queue.front().lines;
    shared->queued -= queue.front().lines;
    queue.pop_front();
    write();
    shared->check_flushed();
  }
  // Nothing is expected from the peer: a read that ends tells that it went.
  void watch() {
    socket.async_read_some(
        asio::buffer(&ignored_byte, 1),
        [self = shared_from_this()](boost::system::error_code error, std::size_t) {
          if (self->gone) return;
          if (error) return self->shared->peer_closed(self->shared, self.get());
          self->watch();
        });
  }
};

void TcpSink::Shared::send(const std::shared_ptr<Shared>& self, Batch batch) {
  if (stopped) {
    dropped += batch.lines;
    return;
  }
  if (!options.connect.empty()) {
    if (peers.empty()) return to_backlog(std::move(batch), false);
    Peer& peer = *peers.front();
    if (!peer.has_room_for(batch)) {
      dropped += batch.lines;
      return;
    }
    return peer.enqueue(std::move(batch));
  }
  if (peers.empty()) {
    to_no_one += batch.lines;
    return;
  }
  // Listen: every peer gets it; one that cannot keep up is let go.
  for (auto it = peers.begin(); it != peers.end();) {
    std::shared_ptr<Peer> peer = *it++;
    if (peer->has_room_for(batch)) {
      peer->enqueue(batch);
    } else {
      ++slow;
      dropped += batch.lines;
      peer_closed(self, peer.get());
    }
  }
}

void TcpSink::Shared::to_backlog(Batch batch, bool front) {
  if (backlog_lines + batch.lines > options.sink.max_pending) {
    dropped += batch.lines;
    return;
  }
  backlog_lines += batch.lines;
  queued += batch.lines;
  if (front)
    backlog.push_front(std::move(batch));
  else
    backlog.push_back(std::move(batch));
}

void TcpSink::Shared::accept(const std::shared_ptr<Shared>& self) {
  accept_connections(
      self, [self] { return self->peers.size() < self->options.max_connections; },
      [self](tcp::socket socket) { self->start_peer(self, std::move(socket)); }, [] {});
}

void TcpSink::Shared::connect(const std::shared_ptr<Shared>& self) {
  connect_to(
      context, options.connect,
      [self](tcp::socket socket) {
        if (self->stopped) return;
        self->backoff.connected();
        self->start_peer(self, std::move(socket));
      },
      [self] {
        if (!self->stopped) self->reconnect_later(self);
      });
}

void TcpSink::Shared::reconnect_later(const std::shared_ptr<Shared>& self) {
  timer.expires_after(std::chrono::nanoseconds(backoff.failed()));
  timer.async_wait([self](boost::system::error_code e) {
    if (!e && !self->stopped) self->connect(self);
  });
}

void TcpSink::Shared::start_peer(const std::shared_ptr<Shared>& self, tcp::socket socket) {
  auto peer = std::make_shared<Peer>(self, std::move(socket));
  peers.push_back(peer);
  peer_count = peers.size();
  peer->watch();
  // Connect: what waited for the connection goes first.
  while (!backlog.empty()) {
    Batch batch = std::move(backlog.front());
    backlog.pop_front();
    backlog_lines -= batch.lines;
    queued -= batch.lines;
    peer->enqueue(std::move(batch));
  }
}

void TcpSink::Shared::peer_closed(const std::shared_ptr<Shared>& self, Peer* which) {
  if (which->gone) return;
  which->gone = true;
  boost::system::error_code ignored;
  which->socket.close(ignored);
  std::shared_ptr<Peer> keep;
  for (auto it = peers.begin(); it != peers.end(); ++it)
    if (it->get() == which) {
      keep = *it;
      peers.erase(it);
      break;
    }
  peer_count = peers.size();
  queued -= which->lines;
  if (!options.connect.empty() && !stopped) {
    // Sent again on the next connection, the batch being written too (at least once).
    while (!which->queue.empty()) {
      Batch batch = std::move(which->queue.back());
      which->queue.pop_back();
      if (batch.lines > 0) to_backlog(std::move(batch), true);
    }
    reconnect_later(self);  // closing too: what waits gets its linger
  } else {
    dropped += which->lines;
  }
  which->queue.clear();
  which->lines = 0;
  check_flushed();
}

void TcpSink::Shared::stop() {
  stopped = true;
  boost::system::error_code ignored;
  acceptor.close(ignored);
  timer.cancel();
  for (auto& peer : peers) {
    peer->gone = true;
    peer->socket.close(ignored);
  }
  peers.clear();
  peer_count = 0;
}

TcpSink::TcpSink(TcpSinkOptions options)
    : PushSink(kPorts, "tcp_sink", "lines", options.sink),
      options_(std::move(options)),
      encoder_(options_.format) {}

std::shared_ptr<SinkEndpoint> TcpSink::open(asio::io_context& loop) {
  encoder_ = RecordEncoder(options_.format);
  auto shared = std::make_shared<Shared>(options_, loop);
  if (!options_.listen.empty()) {
    shared->port = open_listener(shared->acceptor, options_.listen);
    asio::post(loop, [shared] { shared->accept(shared); });
  } else {
    asio::post(loop, [shared] { shared->connect(shared); });
  }
  return shared;
}

std::string TcpSink::why_dropped() const {
  return options_.connect.empty() ? "a peer that left or could not keep up"
                                  : "max_pending lines waited already";
}

void TcpSink::fire(FiringContext& context) {
  auto text = std::make_shared<std::string>();
  std::size_t lines = 0;
  for (const Event& event : context.window()) {
    encoder_.append(*text, event.token);
    ++lines;
  }
  std::shared_ptr<const std::string> header;
  if (!encoder_.header().empty()) header = std::make_shared<std::string>(encoder_.header());
  auto shared = std::static_pointer_cast<Shared>(endpoint());
  asio::post(shared->context,
             [shared, batch = Batch{std::move(text), lines}, header = std::move(header)]() mutable {
               if (header && !shared->header) shared->header = std::move(header);
               shared->send(shared, std::move(batch));
             });
  report_losses(context);
}

ActorType tcp_sink_type() {
  return actors::make_type(
      "tcp_sink",
      "Records sent over TCP, one per line: JSON objects, or CSV lines under a header line. "
      "Connects to a server (connect: host:port, again with backoff) or sends to every program "
      "connected to it (listen: 127.0.0.1:9000). Written on the network event loop; at most "
      "max_pending lines wait per peer (a slower listener is disconnected, reported as dropped).",
      [] {
        std::vector<ParamSpec> params{
            {"listen", ParamType::string, Value(),
             "HOST:PORT to accept connections on (loopback by default: 127.0.0.1:PORT)"},
            {"connect", ParamType::string, Value(), "HOST:PORT of a server to send to"},
            format_param(),
            {"max_connections", ParamType::integer, Value(64),
             "peers at once (listen); more are closed at once"}};
        for (ParamSpec& spec : push_sink_params("lines", " (connect: also while disconnected)"))
          params.push_back(std::move(spec));
        return params;
      }(),
      TcpSink::kPorts,
      [](const Params& params) -> std::unique_ptr<Actor> {
        TcpSinkOptions options;
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
        options.sink = read_push_sink_options(params);
        options.max_connections =
            static_cast<std::size_t>(positive_param(params, "max_connections"));
        return std::make_unique<TcpSink>(std::move(options));
      });
}

}  // namespace cwf::net
