#include "cli/server/http_server.hpp"

#include <array>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

#include "actors/net/accept_connections.hpp"
#include "actors/net/io_loop.hpp"

namespace cwf::cli {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr std::chrono::seconds kRequestTimeout{30};
constexpr std::chrono::milliseconds kStreamPoll{100};
constexpr std::chrono::seconds kKeepAlive{15};
constexpr std::chrono::seconds kStreamWriteTimeout{30};

// The status and header fields of an answer, for any body type.
template <typename Body>
void set_header(http::response<Body>& response, const ApiResponse& api, unsigned version) {
  response.version(version);
  response.result(static_cast<http::status>(api.status));
  response.set(http::field::server, "cwf");
  response.set(http::field::content_type, api.content_type);
  response.set(http::field::cache_control, "no-store");
  for (const auto& [name, value] : api.headers)
    response.set(name, value);
}

class Session;

// What the acceptor and the sessions share with the server. Sockets live on the process's event
// loop (cwf::net::IoLoop, one thread, the network actors' too); the handler runs on the server's
// own threads, so a slow request never holds the loop.
struct Shared {
  explicit Shared(net::io_context& io) : acceptor(io) {}
  HttpServer::Handler handler;
  tcp::acceptor acceptor;
  std::optional<net::thread_pool::executor_type> handlers;  // set by run()
  // The loop's thread alone touches these two.
  std::vector<std::weak_ptr<Session>> sessions;
  bool stopped = false;
  // Across threads, under one mutex and one condition: whether the server was asked to stop
  // (run() returns), and how many sessions are alive (the server waits for none before it goes:
  // they call its handler).
  std::mutex mutex;
  std::condition_variable changed;
  bool stop_asked = false;
  std::size_t live = 0;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, std::shared_ptr<Shared> shared)
      : stream_(std::move(socket)), shared_(std::move(shared)) {
    std::lock_guard lock(shared_->mutex);
    ++shared_->live;
  }

  void start() {
    net::dispatch(stream_.get_executor(),
                  beast::bind_front_handler(&Session::read, shared_from_this()));
  }

 private:
  void read() {
    parser_.emplace();
    parser_->body_limit(kMaxBody);
    parser_->header_limit(kMaxHeader);
    stream_.expires_after(kRequestTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == net::error::operation_aborted || ec == net::error::connection_reset ||
        ec == net::error::eof)
      return close();
    if (ec == http::error::body_limit)
      return answer(error_response(413, "the request's body is larger than " +
                                            std::to_string(kMaxBody) + " bytes"),
                    11, true);
    if (ec == http::error::header_limit)
      return answer(error_response(431, "the request's header is too large"), 11, true);
    if (ec) return answer(error_response(400, "a malformed request: " + ec.message()), 11, true);
    http::request<http::string_body> request = parser_->release();
    ApiRequest api;
    api.method = std::string(request.method_string());
    api.target = std::string(request.target());
    api.body = std::move(request.body());
    api.authorization = std::string(request[http::field::authorization]);
    // Answered on one of the server's threads, then written from the loop again.
    net::post(*shared_->handlers,
              [self = shared_from_this(), api = std::move(api), version = request.version(),
               close_after = !request.keep_alive()] {
                ApiResponse response;
                try {
                  response = self->shared_->handler(api);
                } catch (const std::exception& e) {
                  response = error_response(500, e.what());
                }
                net::post(self->stream_.get_executor(),
                          [self, response = std::move(response), version, close_after]() mutable {
                            if (self->cut_) return;
                            if (response.stream)
                              return self->stream_answer(std::move(response), version);
                            self->answer(response, version, close_after);
                          });
              });
  }

  // A streamed answer (Server-Sent Events): the header and the body so far, then what the
  // stream gives every kStreamPoll, a comment line after kKeepAlive of silence (so that a client
  // that left is noticed, and proxies keep the connection), until the stream ends or the client
  // closes its side. The connection is not reused.
  void stream_answer(ApiResponse api, unsigned version) {
    source_ = std::move(api.stream);
    stream_header_ = {};
    set_header(stream_header_, api, version);
    stream_header_.keep_alive(false);
    serializer_.emplace(stream_header_);
    stream_.expires_never();
    pending_ = std::move(api.body);
    http::async_write_header(stream_, *serializer_,
                             [self = shared_from_this()](beast::error_code ec, std::size_t) {
                               if (ec) return self->end_stream();
                               self->watch_client();
                               self->send_pending(false);
                             });
  }

  // Any byte or the end from the client ends the stream (a reader of events sends nothing).
  void watch_client() {
    stream_.socket().async_read_some(
        net::buffer(discard_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
          if (ec != net::error::operation_aborted) self->end_stream();
        });
  }

  void send_pending(bool ended) {
    if (streaming_over_) return;
    if (pending_.empty()) return ended ? end_stream() : wait_then_pump();
    silent_for_ = std::chrono::milliseconds(0);
    writing_ = std::move(pending_);
    pending_.clear();
    // A reader that takes nothing for kStreamWriteTimeout is gone: its view is closed.
    stream_.expires_after(kStreamWriteTimeout);
    net::async_write(stream_, net::buffer(writing_),
                     [self = shared_from_this(), ended](beast::error_code ec, std::size_t) {
                       if (ec || ended) return self->end_stream();
                       self->wait_then_pump();
                     });
  }

  void wait_then_pump() {
    timer_.expires_after(kStreamPoll);
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->streaming_over_) return;
      bool ended = false;
      try {
        self->pending_ = self->source_->next(ended);
      } catch (const std::exception&) {
        return self->end_stream();
      }
      self->silent_for_ += kStreamPoll;
      if (self->pending_.empty() && self->silent_for_ >= kKeepAlive) self->pending_ = ": alive\n\n";
      self->send_pending(ended);
    });
  }

  void end_stream() {
    if (streaming_over_) return;
    streaming_over_ = true;
    timer_.cancel();
    source_->closed();
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

 public:
  ~Session() {
    // The server stopped with the stream open: its view is closed all the same.
    if (source_ && !streaming_over_) source_->closed();
    std::lock_guard lock(shared_->mutex);
    if (--shared_->live == 0) shared_->changed.notify_all();
  }

  // The server stops: whatever the session waits for ends now (on the loop's thread).
  void cut() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      self->cut_ = true;
      if (self->source_) return self->end_stream();
      self->timer_.cancel();
      beast::error_code ignored;
      self->stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
      self->stream_.socket().close(ignored);
    });
  }

 private:
  void answer(const ApiResponse& api, unsigned version, bool close_after) {
    response_ = {};
    set_header(response_, api, version);
    response_.body() = api.body;
    response_.keep_alive(!close_after);
    response_.prepare_payload();
    http::async_write(
        stream_, response_,
        beast::bind_front_handler(&Session::on_write, shared_from_this(), close_after));
  }

  void on_write(bool close_after, beast::error_code ec, std::size_t) {
    if (ec || close_after) return close();
    read();
  }

  // Ends the answer, then reads and drops what the client still sends (the rest of an oversized
  // body) until it closes its side or 5 s pass: closing a socket with unread data resets the
  // connection, which can destroy the answer before the client has read it.
  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(std::chrono::seconds(5));
    drain();
  }

  void drain() {
    stream_.async_read_some(net::buffer(discard_),
                            [self = shared_from_this()](beast::error_code ec, std::size_t) {
                              if (!ec) self->drain();
                            });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::array<char, 16 * 1024> discard_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  std::shared_ptr<Shared> shared_;
  bool cut_ = false;  // the server stopped
  // A streamed answer.
  std::shared_ptr<ApiStream> source_;
  http::response<http::empty_body> stream_header_;
  std::optional<http::response_serializer<http::empty_body>> serializer_;
  std::string pending_, writing_;
  net::steady_timer timer_{stream_.get_executor()};
  std::chrono::milliseconds silent_for_{0};
  bool streaming_over_ = false;
};

// The acceptor goes on until the server stops; each connection is a Session.
void accept(const std::shared_ptr<Shared>& shared) {
  cwf::net::accept_connections(
      shared, [] { return true; },
      [shared](tcp::socket socket) {
        auto session = std::make_shared<Session>(std::move(socket), shared);
        std::erase_if(shared->sessions, [](const auto& s) { return s.expired(); });
        shared->sessions.push_back(session);
        session->start();
      },
      [] {});
}

}  // namespace

struct HttpServer::Impl {
  std::shared_ptr<cwf::net::IoLoop> loop = cwf::net::IoLoop::shared();
  std::shared_ptr<Shared> shared = std::make_shared<Shared>(loop->context());
  std::optional<boost::asio::thread_pool> handlers;
};

bool is_loopback(const std::string& host) {
  if (host == "localhost") return true;
  beast::error_code ec;
  net::ip::address address = net::ip::make_address(host, ec);
  return !ec && address.is_loopback();
}

HttpServer::HttpServer(const std::string& host, std::uint16_t port, Handler handler)
    : impl_(std::make_unique<Impl>()) {
  impl_->shared->handler = std::move(handler);
  const std::string where = host + ":" + std::to_string(port);
  beast::error_code ec;
  net::ip::address address =
      net::ip::make_address(host == "localhost" ? std::string("127.0.0.1") : host, ec);
  if (ec) throw std::runtime_error("'" + host + "' is not an IP address to listen on");
  tcp::endpoint endpoint(address, port);
  tcp::acceptor& acceptor = impl_->shared->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
}

HttpServer::~HttpServer() {
  stop();
  // The sessions call the handler: none may outlive the server. Each ends once the loop has
  // cut it and the request it was answering (if any) is answered.
  std::shared_ptr<Shared> shared = impl_->shared;
  {
    std::unique_lock lock(shared->mutex);
    shared->changed.wait(lock, [&] { return shared->live == 0; });
  }
  if (impl_->handlers) impl_->handlers->join();
}

std::uint16_t HttpServer::port() const {
  return impl_->shared->acceptor.local_endpoint().port();
}

void HttpServer::run(unsigned threads) {
  impl_->handlers.emplace(threads);
  impl_->shared->handlers = impl_->handlers->get_executor();
  net::post(impl_->loop->context(), [shared = impl_->shared] { accept(shared); });
  Shared& shared = *impl_->shared;
  std::unique_lock lock(shared.mutex);
  shared.changed.wait(lock, [&] { return shared.stop_asked; });
}

void HttpServer::stop() {
  {
    std::lock_guard lock(impl_->shared->mutex);
    if (impl_->shared->stop_asked) return;
    impl_->shared->stop_asked = true;
  }
  impl_->shared->changed.notify_all();
  // On the loop's thread, which alone touches the acceptor and the list of sessions.
  net::post(impl_->loop->context(), [shared = impl_->shared] {
    shared->stopped = true;
    beast::error_code ignored;
    shared->acceptor.close(ignored);
    for (const auto& weak : shared->sessions)
      if (auto session = weak.lock()) session->cut();
    shared->sessions.clear();
  });
}

}  // namespace cwf::cli
