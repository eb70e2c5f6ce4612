#include "actors/net/websocket_sink.hpp"

#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <deque>
#include <list>
#include <vector>

#include "actors/actor_type_util.hpp"
#include "actors/net/accept_connections.hpp"
#include "actors/net/net_params.hpp"

namespace cwf::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;

namespace {
using Message = std::shared_ptr<const std::string>;
constexpr std::size_t kMaxIncoming = 64 * 1024;  // what a client sends is read and ignored
}  // namespace

struct WebSocketSink::Shared final : SinkEndpoint {
  Shared(WebSocketSinkOptions o, asio::io_context& c)
      : SinkEndpoint(c),
        options(std::move(o)),
        gate(std::make_shared<const WebSocketGate>(options.gate)),
        acceptor(c) {}

  const WebSocketSinkOptions options;
  const std::shared_ptr<const WebSocketGate> gate;

  // ---- the event loop's (only its thread touches these) ----
  tcp::acceptor acceptor;
  bool stopped = false;
  WebSocketHandshakes handshakes;  // closed by stop()
  struct Client;
  std::list<std::shared_ptr<Client>> clients;

  void accept(const std::shared_ptr<Shared>& self);
  void send(const std::vector<Message>& messages);
  void client_closed(Client* which);
  void stop() override;
};

struct WebSocketSink::Shared::Client : std::enable_shared_from_this<Client> {
  Client(std::shared_ptr<Shared> s, std::shared_ptr<WebSocket> w)
      : shared(std::move(s)), ws(std::move(w)) {
    ws->text(true);
    ws->read_message_max(kMaxIncoming);
  }

  std::shared_ptr<Shared> shared;
  std::shared_ptr<WebSocket> ws;
  std::deque<Message> queue;
  bool writing = false;
  bool gone = false;
  beast::flat_buffer incoming;

  bool has_room_for(std::size_t n) const {
    return queue.empty() || queue.size() + n <= shared->options.sink.max_pending;
  }
  void enqueue(const std::vector<Message>& messages) {
    queue.insert(queue.end(), messages.begin(), messages.end());
    shared->queued += messages.size();
    write();
  }
  void write() {
    if (writing || queue.empty() || gone) return;
    writing = true;
    Message message = queue.front();  // held by the handler: the queue may be cleared
    ws->async_write(asio::buffer(*message),
                    [self = shared_from_this(), message](beast::error_code error, std::size_t) {
                      self->written(error);
                    });
  }
  void written(beast::error_code error) {
    writing = false;
    if (gone) return;
    if (error) return shared->client_closed(this);
    queue.pop_front();
    --shared->queued;
    write();
    shared->check_flushed();
  }
  // A read keeps control frames (ping, close) answered and tells when the client went.
  void watch() {
    ws->async_read(incoming, [self = shared_from_this()](beast::error_code error, std::size_t) {
      if (self->gone) return;
      if (error) return self->shared->client_closed(self.get());
      self->incoming.consume(self->incoming.size());
      self->watch();
    });
  }
};

void WebSocketSink::Shared::accept(const std::shared_ptr<Shared>& self) {
  accept_connections(
      self,
      [self] {
        return self->clients.size() + self->handshakes.in_progress() <
               self->options.gate.max_connections;
      },
      [self](tcp::socket socket) {
        self->handshakes.open(std::move(socket), self->gate,
                              [self](std::shared_ptr<WebSocket> ws, std::string) {
                                if (!ws || self->stopped) return;
                                auto client = std::make_shared<Client>(self, std::move(ws));
                                self->clients.push_back(client);
                                self->peer_count = self->clients.size();
                                client->watch();
                              });
      },
      [] {});
}

void WebSocketSink::Shared::send(const std::vector<Message>& messages) {
  if (stopped) {
    dropped += messages.size();
    return;
  }
  if (clients.empty()) {
    to_no_one += messages.size();
    return;
  }
  // Every client gets them; one that cannot keep up is let go.
  for (auto it = clients.begin(); it != clients.end();) {
    std::shared_ptr<Client> client = *it++;
    if (client->has_room_for(messages.size())) {
      client->enqueue(messages);
    } else {
      ++slow;
      dropped += messages.size();
      client_closed(client.get());
    }
  }
}

void WebSocketSink::Shared::client_closed(Client* which) {
  if (which->gone) return;
  which->gone = true;
  beast::get_lowest_layer(*which->ws).close();
  std::shared_ptr<Client> keep_client;
  for (auto it = clients.begin(); it != clients.end(); ++it)
    if (it->get() == which) {
      keep_client = *it;
      clients.erase(it);
      break;
    }
  peer_count = clients.size();
  queued -= which->queue.size();
  dropped += which->queue.size();
  which->queue.clear();
  check_flushed();
}

void WebSocketSink::Shared::stop() {
  stopped = true;
  boost::system::error_code ignored;
  acceptor.close(ignored);
  handshakes.close_all();
  // The run is over: each client is told so. Everything sent was written by now unless the linger
  // ran out; a client still being written to cannot get a close frame, and is cut off.
  for (auto& client : clients) {
    client->gone = true;
    if (client->writing)
      beast::get_lowest_layer(*client->ws).close();
    else
      close_websocket(client->ws, beast::websocket::close_code::normal);
  }
  clients.clear();
  peer_count = 0;
}

WebSocketSink::WebSocketSink(WebSocketSinkOptions options)
    : PushSink(kPorts, "websocket_sink", "messages", options.sink), options_(std::move(options)) {}

std::shared_ptr<SinkEndpoint> WebSocketSink::open(asio::io_context& loop) {
  auto shared = std::make_shared<Shared>(options_, loop);
  shared->port = open_listener(shared->acceptor, options_.gate.access.listen);
  asio::post(loop, [shared] { shared->accept(shared); });
  return shared;
}

void WebSocketSink::fire(FiringContext& context) {
  std::vector<Message> messages;
  for (const Event& event : context.window())
    messages.push_back(std::make_shared<const std::string>(event.token.to_json()));
  auto shared = std::static_pointer_cast<Shared>(endpoint());
  asio::post(shared->context, [shared, messages = std::move(messages)] { shared->send(messages); });
  report_losses(context);
}

ActorType websocket_sink_type() {
  return actors::make_type(
      "websocket_sink",
      "Records pushed to the WebSocket clients (browsers, programs) connected to a server it "
      "runs (listen: 127.0.0.1:9002): each record one text message, its JSON. Can serve a page "
      "on GET / (page:). Written on the network event loop; at most max_pending messages wait "
      "per client (a slower client is disconnected, reported as dropped).",
      [] {
        std::vector<ParamSpec> params = websocket_gate_params();
        for (ParamSpec& spec : push_sink_params("messages", ""))
          params.push_back(std::move(spec));
        return params;
      }(),
      WebSocketSink::kPorts,
      [](const Params& params) -> std::unique_ptr<Actor> {
        WebSocketSinkOptions options;
        options.gate = read_websocket_gate(params);
        options.sink = read_push_sink_options(params);
        return std::make_unique<WebSocketSink>(std::move(options));
      });
}

}  // namespace cwf::net
