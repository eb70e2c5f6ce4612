#include "actors/net/http_source.hpp"

#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <list>
#include <optional>

#include "actors/actor_type_util.hpp"
#include "actors/net/accept_connections.hpp"
#include "actors/net/net_params.hpp"
#include "actors/net/websocket_gate.hpp"

namespace cwf::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

namespace {
// How long a connection may stay idle between requests, or take to send one.
constexpr auto kRequestTime = std::chrono::seconds(30);
}  // namespace

struct HttpSource::Shared final : PushEndpoint {
  Shared(HttpSourceOptions o, asio::io_context& c, ExternalWake wake)
      : PushEndpoint(c, o.push.max_pending, std::move(wake)), options(std::move(o)), acceptor(c) {}

  const HttpSourceOptions options;

  // ---- the event loop's (only its thread touches these) ----
  tcp::acceptor acceptor;
  bool stopped = false;
  struct Session;
  std::list<std::shared_ptr<Session>> sessions;

  void accept(const std::shared_ptr<Shared>& self);
  void session_closed(const Session* which);
  void stop() override;
};

struct HttpSource::Shared::Session : std::enable_shared_from_this<Session> {
  Session(std::shared_ptr<Shared> s, tcp::socket socket)
      : shared(std::move(s)),
        peer(std::make_shared<const std::string>(peer_of(socket))),
        stream(std::move(socket)) {}

  std::shared_ptr<Shared> shared;
  PeerName peer;
  beast::tcp_stream stream;
  beast::flat_buffer buffer;
  std::optional<http::request_parser<http::string_body>> parser;
  http::response<http::string_body> response;
  http::response<http::empty_body> go_on{http::status::continue_, 11};
  char discard[512];

  // The header first: a request refused for it is answered before its body is sent (a client
  // that asked `Expect: 100-continue` waits for that).
  void read() {
    if (shared->stopped) return;
    parser.emplace();
    parser->body_limit(shared->options.max_body);
    stream.expires_after(kRequestTime);
    http::async_read_header(stream, buffer, *parser,
                            [self = shared_from_this()](beast::error_code error, std::size_t) {
                              self->header_read(error);
                            });
  }

  void header_read(beast::error_code error) {
    if (shared->stopped) return;
    if (error == http::error::body_limit) return too_large();
    if (error) return closed();
    const auto& request = parser->get();
    if (!presents_token(request, shared->options.access.token))
      return respond(http::status::unauthorized, "a token is required\n", true);
    if (std::string why = refused_origin(request, shared->options.access); !why.empty())
      return respond(http::status::forbidden, why + "\n", true);
    if (target_path(request.target()) != shared->options.path)
      return respond(http::status::not_found,
                     "records are posted to " + shared->options.path + "\n", true);
    if (request.method() != http::verb::post) {
      response.set(http::field::allow, "POST");
      return respond(http::status::method_not_allowed, "records are POSTed\n", true);
    }
    if (beast::iequals(request[http::field::expect], "100-continue")) {
      // Nothing is taken while the workflow is behind: the sender tries again.
      if (shared->inbox.full()) return busy(true);
      return http::async_write(stream, go_on,
                               [self = shared_from_this()](beast::error_code e, std::size_t) {
                                 if (e) return self->closed();
                                 self->read_body();
                               });
    }
    read_body();
  }

  void read_body() {
    http::async_read(stream, buffer, *parser,
                     [self = shared_from_this()](beast::error_code error, std::size_t) {
                       if (self->shared->stopped) return;
                       if (error == http::error::body_limit) return self->too_large();
                       if (error) return self->closed();
                       // Nothing is taken while the workflow is behind: the sender tries again.
                       if (self->shared->inbox.full()) return self->busy(false);
                       self->take(self->parser->get());
                     });
  }

  void too_large() {
    respond(http::status::payload_too_large,
            "a body over " + std::to_string(shared->options.max_body) + " bytes (max_body)\n",
            true);
  }

  void busy(bool body_unread) {
    response.set(http::field::retry_after, "1");
    respond(http::status::service_unavailable, "busy: try again\n", body_unread);
  }

  void take(const http::request<http::string_body>& request) {
    std::size_t accepted = 0, malformed = 0;
    std::string first_error;
    auto push = [&](DecodedLine line) {
      if (line.error.empty()) {
        ++accepted;
      } else if (malformed++ == 0) {
        first_error = line.error;
      }
      shared->inbox.push(std::move(line), peer);
    };
    if (std_view(request[http::field::content_type]).starts_with("application/json")) {
      RecordDecoder::decode_json_document(request.body(), push);
    } else {
      RecordDecoder decoder(shared->options.format, shared->options.push.max_message);
      decoder.feed_whole(request.body(), push);
    }
    if (accepted + malformed > 0) shared->inbox.wake();
    std::string counts =
        "{\"accepted\":" + std::to_string(accepted) + ",\"malformed\":" + std::to_string(malformed);
    if (accepted == 0) {
      if (first_error.empty()) first_error = "no record in the body";
      return respond(http::status::bad_request,
                     counts + ",\"error\":" + Value(first_error).to_json() + "}\n", false,
                     "application/json");
    }
    respond(http::status::accepted, counts + "}\n", false, "application/json");
  }

  // `close`: the connection ends after the answer (its body, if any, is left unread).
  void respond(http::status status, std::string body, bool close, const char* type = "text/plain") {
    response.result(status);
    response.version(11);
    response.set(http::field::content_type, type);
    response.keep_alive(!close && parser->get().keep_alive());
    response.body() = std::move(body);
    response.prepare_payload();
    http::async_write(stream, response,
                      [self = shared_from_this()](beast::error_code error, std::size_t) {
                        const bool again = !error && self->response.keep_alive();
                        self->response = {};
                        if (again) return self->read();
                        self->drain();
                      });
  }

  // Closing with unread bytes would reset the connection and could lose the answer on its way:
  // the sending side is shut, and what still comes is read and thrown away (1 s at most).
  void drain() {
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream.expires_after(std::chrono::seconds(1));
    drain_more();
  }
  void drain_more() {
    stream.async_read_some(asio::buffer(discard),
                           [self = shared_from_this()](beast::error_code error, std::size_t) {
                             if (error || self->shared->stopped) return self->closed();
                             self->drain_more();
                           });
  }

  void closed() {
    auto keep = shared_from_this();
    stream.close();
    shared->session_closed(this);
  }
};

void HttpSource::Shared::accept(const std::shared_ptr<Shared>& self) {
  accept_connections(
      self, [self] { return self->sessions.size() < self->options.max_connections; },
      [self](tcp::socket socket) {
        auto session = std::make_shared<Session>(self, std::move(socket));
        self->sessions.push_back(session);
        session->read();
      },
      [self] { self->inbox.count_refused(); });  // the source reports it
}

void HttpSource::Shared::session_closed(const Session* which) {
  sessions.remove_if([which](const auto& s) { return s.get() == which; });
}

void HttpSource::Shared::stop() {
  stopped = true;
  boost::system::error_code ignored;
  acceptor.close(ignored);
  for (auto& session : sessions)
    session->stream.close();
  sessions.clear();
  inbox.drop_waiting();
}

HttpSource::HttpSource(HttpSourceOptions options)
    : PushSource(kPorts, "http_source", options.push), options_(std::move(options)) {}

std::shared_ptr<PushEndpoint> HttpSource::open(asio::io_context& loop, ExternalWake wake) {
  auto shared = std::make_shared<Shared>(options_, loop, std::move(wake));
  shared->port = open_listener(shared->acceptor, options_.access.listen);
  asio::post(loop, [shared] { shared->accept(shared); });
  return shared;
}

ActorType http_source_type() {
  return actors::make_type(
      "http_source",
      "Records POSTed to an endpoint it serves (listen: 127.0.0.1:9003, path: /events): a JSON "
      "object or array (Content-Type: application/json), or lines (JSON objects, or CSV under a "
      "header line). Answers 202 once queued, 503 with Retry-After while the workflow is behind, "
      "400/413/401/404/405 otherwise. Served on the network event loop, never on a worker.",
      [] {
        std::vector<ParamSpec> params = server_access_params("HTTP clients");
        params.push_back({"path", ParamType::string, Value("/"), "the path records are POSTed to"});
        params.push_back(format_param());
        params.push_back({"max_body", ParamType::integer, Value(std::int64_t(8) << 20),
                          "largest body in bytes; a larger one is answered 413"});
        params.push_back({"max_connections", ParamType::integer, Value(64),
                          "connections open at once; more are closed at once and reported"});
        for (ParamSpec& spec : push_source_params())
          params.push_back(std::move(spec));
        return params;
      }(),
      HttpSource::kPorts,
      [](const Params& params) -> std::unique_ptr<Actor> {
        HttpSourceOptions options;
        options.access = read_server_access(params);
        options.path = params.get_string("path");
        if (!options.path.starts_with("/"))
          throw ParamError("path", "expected a path beginning with /, got '" + options.path + "'");
        options.format = read_format(params);
        options.max_body = static_cast<std::size_t>(positive_param(params, "max_body"));
        options.max_connections =
            static_cast<std::size_t>(positive_param(params, "max_connections"));
        options.push = read_push_source_options(params);
        return std::make_unique<HttpSource>(std::move(options));
      });
}

}  // namespace cwf::net
