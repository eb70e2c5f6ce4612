#include "actors/net/websocket_source.hpp"

#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <list>

#include "actors/actor_type_util.hpp"
#include "actors/net/accept_connections.hpp"
#include "actors/net/net_params.hpp"

namespace cwf::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;

namespace {
constexpr std::size_t kReadChunk = 64 * 1024;
}  // namespace

struct WebSocketSource::Shared final : PushEndpoint {
  Shared(WebSocketSourceOptions o, asio::io_context& c, ExternalWake wake)
      : PushEndpoint(c, o.push.max_pending, std::move(wake)),
        options(std::move(o)),
        gate(std::make_shared<const WebSocketGate>(options.gate)),
        acceptor(c) {}

  const WebSocketSourceOptions options;
  const std::shared_ptr<const WebSocketGate> gate;

  // ---- the event loop's (only its thread touches these) ----
  tcp::acceptor acceptor;
  bool stopped = false;
  bool ever_connected = false;
  WebSocketHandshakes handshakes;  // closed by stop()
  struct Client;
  std::list<std::shared_ptr<Client>> clients;

  void accept(const std::shared_ptr<Shared>& self);
  void client_closed(const Client* which);
  void stop() override;
};

struct WebSocketSource::Shared::Client : std::enable_shared_from_this<Client> {
  Client(std::shared_ptr<Shared> s, std::shared_ptr<WebSocket> w, std::string p)
      : shared(std::move(s)),
        ws(std::move(w)),
        peer(std::make_shared<const std::string>(std::move(p))),
        decoder(shared->options.format, shared->options.push.max_message) {}

  std::shared_ptr<Shared> shared;
  std::shared_ptr<WebSocket> ws;
  PeerName peer;
  RecordDecoder decoder;
  beast::flat_buffer buffer;
  bool paused = false;  // not read while the inbox is full (see websocket_timeouts)

  void read() {
    if (shared->stopped) return;
    // While the inbox is full the client is not read (TCP slows it down); the source resumes
    // this once it made room.
    auto resume = [self = shared_from_this()] {
      asio::post(self->shared->context, [self] { self->read(); });
    };
    if (shared->inbox.full() && shared->inbox.wait_for_room(std::move(resume))) {
      if (!paused) {
        paused = true;
        ws->set_option(websocket_timeouts(*shared->gate, true));
      }
      return;
    }
    if (paused) {
      paused = false;
      ws->set_option(websocket_timeouts(*shared->gate, false));
    }
    ws->async_read_some(buffer, kReadChunk,
                        [self = shared_from_this()](beast::error_code error, std::size_t) {
                          self->received(error);
                        });
  }

  void received(beast::error_code error) {
    if (shared->stopped) return;  // what the source reported as final stays so
    if (error) {
      // A message cut short by the close is not a record.
      auto keep = shared_from_this();
      return shared->client_closed(this);
    }
    bool pushed = false;
    auto take = [this, &pushed](DecodedLine line) {
      shared->inbox.push(std::move(line), peer);
      pushed = true;
    };
    const asio::const_buffer bytes = buffer.cdata();  // a flat buffer is one piece
    decoder.feed(std::string_view(static_cast<const char*>(bytes.data()), bytes.size()), take);
    buffer.consume(buffer.size());
    if (ws->is_message_done()) decoder.finish(take);  // a message's last line needs no newline
    if (pushed) shared->inbox.wake();
    read();
  }
};

void WebSocketSource::Shared::accept(const std::shared_ptr<Shared>& self) {
  accept_connections(
      self,
      [self] {
        return self->clients.size() + self->handshakes.in_progress() <
               self->options.gate.max_connections;
      },
      [self](tcp::socket socket) {
        self->handshakes.open(
            std::move(socket), self->gate, [self](std::shared_ptr<WebSocket> ws, std::string peer) {
              if (!ws || self->stopped) return;
              self->ever_connected = true;
              auto client = std::make_shared<Client>(self, std::move(ws), std::move(peer));
              self->clients.push_back(client);
              client->read();
            });
      },
      [self] { self->inbox.count_refused(); });  // the source reports it
}

void WebSocketSource::Shared::client_closed(const Client* which) {
  clients.remove_if([which](const auto& c) { return c.get() == which; });
  if (stopped || !options.end_on_close || !clients.empty()) return;
  // No one else comes in: a client after this one would find the source ending.
  boost::system::error_code ignored;
  acceptor.close(ignored);
  inbox.mark_ended();
}

void WebSocketSource::Shared::stop() {
  stopped = true;
  boost::system::error_code ignored;
  acceptor.close(ignored);
  handshakes.close_all();
  // The workflow stops taking records: its clients are told that the endpoint goes away.
  for (auto& client : clients)
    close_websocket(client->ws, beast::websocket::close_code::going_away);
  clients.clear();
  inbox.drop_waiting();
}

WebSocketSource::WebSocketSource(WebSocketSourceOptions options)
    : PushSource(kPorts, "websocket_source", options.push), options_(std::move(options)) {}

std::shared_ptr<PushEndpoint> WebSocketSource::open(asio::io_context& loop, ExternalWake wake) {
  auto shared = std::make_shared<Shared>(options_, loop, std::move(wake));
  shared->port = open_listener(shared->acceptor, options_.gate.access.listen);
  asio::post(loop, [shared] { shared->accept(shared); });
  return shared;
}

ActorType websocket_source_type() {
  return actors::make_type(
      "websocket_source",
      "Records pushed by WebSocket clients (browsers, programs) to a server it runs (listen: "
      "127.0.0.1:9001): one record per line of each message, JSON objects or CSV under a "
      "header line. Can serve a page on GET / (page:). Read on the network event loop, never on "
      "a worker; malformed and oversized lines go to `errors`.",
      [] {
        std::vector<ParamSpec> params = websocket_gate_params();
        params.push_back(format_param());
        params.push_back({"end_on_close", ParamType::boolean, Value(false),
                          "end once the last client left after one came"});
        for (ParamSpec& spec : push_source_params())
          params.push_back(std::move(spec));
        return params;
      }(),
      WebSocketSource::kPorts,
      [](const Params& params) -> std::unique_ptr<Actor> {
        WebSocketSourceOptions options;
        options.gate = read_websocket_gate(params);
        options.format = read_format(params);
        options.push = read_push_source_options(params);
        options.end_on_close = params.get_bool("end_on_close");
        return std::make_unique<WebSocketSource>(std::move(options));
      });
}

}  // namespace cwf::net
