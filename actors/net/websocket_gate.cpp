#include "actors/net/websocket_gate.hpp"

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <fstream>
#include <sstream>

#include "actors/actor_type_util.hpp"
#include "actors/net/net_params.hpp"
#include "actors/net/server_access.hpp"

namespace cwf::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using actors::is_set;

std::vector<ParamSpec> websocket_gate_params() {
  std::vector<ParamSpec> params = server_access_params("WebSocket clients");
  params.push_back({"page", ParamType::string, Value(),
                    "an HTML file served on GET / (relative to the workflow file's folder), e.g. "
                    "the browser page that opens the WebSocket"});
  params.push_back({"max_connections", ParamType::integer, Value(64),
                    "clients at once; more are refused and reported"});
  return params;
}

WebSocketGate read_websocket_gate(const Params& params) {
  WebSocketGate gate;
  gate.access = read_server_access(params);
  if (is_set(params, "page")) {
    const std::string path = params.path("page");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      params.input_missing("page", "cannot open '" + path + "'");
    } else {
      std::ostringstream text;
      text << in.rdbuf();
      gate.page = std::make_shared<const std::string>(text.str());
    }
  }
  gate.max_connections = static_cast<std::size_t>(positive_param(params, "max_connections"));
  return gate;
}

namespace {

constexpr auto kRequestTime = std::chrono::seconds(10);

struct Handshake : std::enable_shared_from_this<Handshake> {
  Handshake(asio::ip::tcp::socket socket, std::shared_ptr<const WebSocketGate> g,
            WebSocketAccepted a)
      : peer(peer_of(socket)),
        ws(std::make_shared<WebSocket>(std::move(socket))),
        gate(std::move(g)),
        accepted(std::move(a)) {}

  std::string peer;
  std::shared_ptr<WebSocket> ws;
  std::shared_ptr<const WebSocketGate> gate;
  WebSocketAccepted accepted;
  beast::flat_buffer buffer;
  http::request_parser<http::empty_body> parser;
  http::response<http::string_body> response;

  void read() {
    beast::get_lowest_layer(*ws).expires_after(kRequestTime);
    http::async_read(ws->next_layer(), buffer, parser,
                     [self = shared_from_this()](beast::error_code error, std::size_t) {
                       if (error) return self->accepted(nullptr, self->peer);
                       self->answer();
                     });
  }

  void answer() {
    const http::request<http::empty_body>& request = parser.get();
    if (!presents_token(request, gate->access.token))
      return respond(http::status::unauthorized, "text/plain", "a token is required\n");
    if (std::string why = refused_origin(request, gate->access); !why.empty())
      return respond(http::status::forbidden, "text/plain", why + "\n");
    if (websocket::is_upgrade(request)) {
      beast::get_lowest_layer(*ws).expires_never();
      ws->set_option(websocket_timeouts(*gate));
      ws->read_message_max(0);  // the decoder bounds each line, not the message
      ws->async_accept(request, [self = shared_from_this()](beast::error_code error) {
        self->accepted(error ? nullptr : self->ws, self->peer);
      });
      return;
    }
    const std::string_view path = target_path(request.target());
    if (request.method() == http::verb::get && gate->page && (path == "/" || path == "/index.html"))
      return respond(http::status::ok, "text/html; charset=utf-8", *gate->page);
    if (!gate->page)
      return respond(http::status::upgrade_required, "text/plain",
                     "a WebSocket endpoint: connect with a WebSocket client\n");
    respond(http::status::not_found, "text/plain", "not found\n");
  }

  void respond(http::status status, std::string_view type, std::string body) {
    response = http::response<http::string_body>(status, parser.get().version());
    response.set(http::field::content_type, beast::string_view(type.data(), type.size()));
    if (status == http::status::upgrade_required) response.set(http::field::upgrade, "websocket");
    response.keep_alive(false);
    response.body() = std::move(body);
    response.prepare_payload();
    accepted(nullptr, peer);
    http::async_write(
        ws->next_layer(), response, [self = shared_from_this()](beast::error_code, std::size_t) {
          beast::error_code ignored;
          self->ws->next_layer().socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
        });
  }
};

}  // namespace

std::shared_ptr<WebSocket> open_websocket(asio::ip::tcp::socket socket,
                                          std::shared_ptr<const WebSocketGate> gate,
                                          WebSocketAccepted accepted) {
  auto handshake =
      std::make_shared<Handshake>(std::move(socket), std::move(gate), std::move(accepted));
  handshake->read();
  return handshake->ws;
}

void WebSocketHandshakes::open(asio::ip::tcp::socket socket,
                               std::shared_ptr<const WebSocketGate> gate,
                               WebSocketAccepted accepted) {
  ++in_progress_;
  std::erase_if(opening_, [](const auto& ws) { return ws.expired(); });
  opening_.push_back(open_websocket(
      std::move(socket), std::move(gate),
      [this, accepted = std::move(accepted)](std::shared_ptr<WebSocket> ws, std::string peer) {
        --in_progress_;
        // Open now: its owner closes it (close_all() is for the handshakes alone).
        if (ws) std::erase_if(opening_, [&](const auto& opening) { return opening.lock() == ws; });
        accepted(std::move(ws), std::move(peer));
      }));
}

websocket::stream_base::timeout websocket_timeouts(const WebSocketGate& gate, bool paused) {
  websocket::stream_base::timeout limits =
      websocket::stream_base::timeout::suggested(beast::role_type::server);
  // Beast counts idleness from the last read: a stream not read on purpose is not idle. (Its
  // timer, already running, then does nothing; the next read arms it again.)
  if (paused)
    limits.idle_timeout = websocket::stream_base::none();
  else
    limits.idle_timeout = std::chrono::nanoseconds(2 * gate.ping_after);
  limits.keep_alive_pings = true;
  return limits;
}

void close_websocket(const std::shared_ptr<WebSocket>& ws, websocket::close_code code) {
  // The closing handshake has the handshake's limit: a client that never answers is let go.
  websocket::stream_base::timeout limits;
  ws->get_option(limits);
  limits.handshake_timeout = std::chrono::seconds(1);
  ws->set_option(limits);
  ws->async_close(code, [ws](beast::error_code) {
    beast::error_code ignored;
    beast::get_lowest_layer(*ws).socket().close(ignored);
  });
}

void WebSocketHandshakes::close_all() {
  for (auto& opening : opening_)
    if (auto ws = opening.lock()) beast::get_lowest_layer(*ws).close();
  opening_.clear();
}

}  // namespace cwf::net
