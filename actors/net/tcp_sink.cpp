#include "actors/net/tcp_sink.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <atomic>
#include <deque>
#include <future>
#include <list>

#include "actors/actor_type_util.hpp"
#include "actors/net/connect_to.hpp"
#include "actors/net/io_loop.hpp"
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

struct TcpSink::Shared {
  Shared(TcpSinkOptions o, asio::io_context& c)
      : options(std::move(o)), context(c), acceptor(c), timer(c) {
    backoff.min = options.reconnect_min;
    backoff.max = options.reconnect_max;
  }

  const TcpSinkOptions options;
  asio::io_context& context;
  std::atomic<unsigned short> port{0};
  std::atomic<std::size_t> peer_count{0};
  // Counted on the loop, reported by the actor.
  std::atomic<std::uint64_t> dropped{0};    // lines that will never be written
  std::atomic<std::uint64_t> slow{0};       // peers disconnected as slow consumers
  std::atomic<std::uint64_t> to_no_one{0};  // listen: lines sent while no peer was connected
  std::atomic<std::uint64_t> queued{0};     // lines waiting to be written, anywhere

  // ---- the event loop's (only its thread touches these) ----
  tcp::acceptor acceptor;
  asio::steady_timer timer;  // reconnection backoff
  Backoff backoff;
  bool stopped = false;
  std::shared_ptr<const std::string> header;  // CSV: each peer's first line
  std::deque<Batch> backlog;                  // connect: while no connection is up
  std::size_t backlog_lines = 0;
  std::promise<void> flushed;  // set once closing and nothing is queued
  bool closing = false;
  struct Peer;
  std::list<std::shared_ptr<Peer>> peers;

  void send(const std::shared_ptr<Shared>& self, Batch batch);
  void to_backlog(Batch batch, bool front);
  void accept(const std::shared_ptr<Shared>& self);
  void connect(const std::shared_ptr<Shared>& self);
  void reconnect_later(const std::shared_ptr<Shared>& self);
  void start_peer(const std::shared_ptr<Shared>& self, tcp::socket socket);
  void peer_closed(const std::shared_ptr<Shared>& self, Peer* which);
  void close_when_flushed();
  void check_flushed();
  void stop();
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
    return lines == 0 || lines + batch.lines <= shared->options.max_pending;
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
  if (backlog_lines + batch.lines > options.max_pending) {
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
  acceptor.async_accept([self](boost::system::error_code error, tcp::socket socket) {
    if (self->stopped || error == asio::error::operation_aborted) return;
    if (!error) {
      if (self->peers.size() >= self->options.max_connections) {
        boost::system::error_code ignored;
        socket.close(ignored);
      } else {
        self->start_peer(self, std::move(socket));
      }
    }
    self->accept(self);
  });
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

void TcpSink::Shared::close_when_flushed() {
  closing = true;
  check_flushed();
}

void TcpSink::Shared::check_flushed() {
  if (!closing || queued.load() > 0) return;
  closing = false;
  flushed.set_value();
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
    : Actor(kPorts), options_(std::move(options)), encoder_(options_.format) {}

TcpSink::~TcpSink() {
  if (shared_) asio::post(shared_->context, [shared = shared_] { shared->stop(); });
}

unsigned short TcpSink::port() const {
  std::lock_guard lock(view_mutex_);
  return view_ ? view_->port.load() : 0;
}

std::size_t TcpSink::peers() const {
  std::lock_guard lock(view_mutex_);
  return view_ ? view_->peer_count.load() : 0;
}

void TcpSink::initialize(ActorContext&) {
  encoder_ = RecordEncoder(options_.format);
  if (!loop_) loop_ = IoLoop::shared();
  shared_ = std::make_shared<Shared>(options_, loop_->context());
  if (!options_.listen.empty()) {
    shared_->port = open_listener(shared_->acceptor, options_.listen);
    asio::post(shared_->context, [shared = shared_] { shared->accept(shared); });
  } else {
    asio::post(shared_->context, [shared = shared_] { shared->connect(shared); });
  }
  std::lock_guard lock(view_mutex_);
  view_ = shared_;
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
  asio::post(shared_->context, [shared = shared_, batch = Batch{std::move(text), lines},
                                header = std::move(header)]() mutable {
    if (header && !shared->header) shared->header = std::move(header);
    shared->send(shared, std::move(batch));
  });
  report_losses(context);
}

void TcpSink::report_losses(ActorContext& context) {
  if (std::uint64_t slow = shared_->slow.exchange(0))
    context.report_warning("tcp_sink: " + std::to_string(slow) +
                           " peer(s) disconnected as slow consumers (max_pending " +
                           std::to_string(options_.max_pending) + " lines waiting)");
  if (std::uint64_t dropped = shared_->dropped.exchange(0))
    context.report_dropped(
        dropped, "tcp_sink: lines not written (" +
                     std::string(options_.connect.empty() ? "a peer that left or could not keep up"
                                                          : "max_pending lines waited already") +
                     ")");
}

void TcpSink::wrapup(ActorContext& context) {
  if (!shared_) return;
  // What is queued gets up to `linger` to be written; the event loop does the writing.
  std::future<void> flushed = shared_->flushed.get_future();
  asio::post(shared_->context, [shared = shared_] { shared->close_when_flushed(); });
  const bool all_written =
      flushed.wait_for(std::chrono::nanoseconds(options_.linger)) == std::future_status::ready;
  std::promise<void> stopped;
  std::future<void> stop_ran = stopped.get_future();
  asio::post(shared_->context, [shared = shared_, stopped = std::move(stopped)]() mutable {
    shared->stop();
    stopped.set_value();
  });
  stop_ran.wait();  // the counts below are final
  if (!all_written) shared_->dropped += shared_->queued.exchange(0);
  report_losses(context);
  if (std::uint64_t none = shared_->to_no_one.exchange(0))
    context.report_warning("tcp_sink: " + std::to_string(none) +
                           " line(s) sent while no peer was connected");
  {
    std::lock_guard lock(view_mutex_);
    view_.reset();
  }
  shared_.reset();
}

ActorType tcp_sink_type() {
  return actors::make_type(
      "tcp_sink",
      "Records sent over TCP, one per line: JSON objects, or CSV lines under a header line. "
      "Connects to a server (connect: host:port, again with backoff) or sends to every program "
      "connected to it (listen: 127.0.0.1:9000). Written on the network event loop; at most "
      "max_pending lines wait per peer (a slower listener is disconnected, reported as dropped).",
      {{"listen", ParamType::string, Value(),
        "HOST:PORT to accept connections on (loopback by default: 127.0.0.1:PORT)"},
       {"connect", ParamType::string, Value(), "HOST:PORT of a server to send to"},
       format_param(),
       {"max_pending", ParamType::integer, Value(65536),
        "lines waiting to be written per peer (connect: also while disconnected)"},
       {"max_connections", ParamType::integer, Value(64), "peers at once (listen)"},
       {"linger", ParamType::duration, Value(static_cast<std::int64_t>(5 * kSecond)),
        "at the end of the run, how long what is queued may take to be written"}},
      TcpSink::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
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
        options.max_pending = static_cast<std::size_t>(positive_param(params, "max_pending"));
        options.max_connections =
            static_cast<std::size_t>(positive_param(params, "max_connections"));
        options.linger = params.get_duration("linger");
        return std::make_unique<TcpSink>(std::move(options));
      });
}

}  // namespace cwf::net
