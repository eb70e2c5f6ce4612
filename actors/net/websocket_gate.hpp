// What a WebSocket server actor (websocket_source, websocket_sink) does before a client is in:
// it reads the client's HTTP request and answers it. An upgrade that carries the token (when
// one is required) becomes a WebSocket; a plain GET of "/" gets the actor's page when it has
// one (the browser application that then opens the WebSocket); anything else gets 401, 404 or
// 426 and is closed. A client has 10 s to send its request.
//
// Who may connect is ServerAccess's rule: a token whenever the actor listens beyond loopback.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "actors/net/server_access.hpp"
#include "runtime/loading/actor_registry.hpp"
#include "runtime/time/duration.hpp"

namespace cwf::net {

using WebSocket = boost::beast::websocket::stream<boost::beast::tcp_stream>;

struct WebSocketGate {
  ServerAccess access;
  std::shared_ptr<const std::string> page;  // served on GET /; null: none
  std::size_t max_connections = 64;
  // A client from which nothing came for this long is pinged; one silent for twice as long is
  // let go (a browser answers the ping by itself).
  Duration ping_after = 150 * kSecond;
};

// The timeouts of an open WebSocket of `gate`; `paused`: while the server does not read it (a
// source held back by a full queue), when its silence means nothing.
boost::beast::websocket::stream_base::timeout websocket_timeouts(const WebSocketGate& gate,
                                                                 bool paused = false);

// listen, token, page, max_connections.
std::vector<ParamSpec> websocket_gate_params();
// Throws ParamError naming the parameter (a page that cannot be read, a non-loopback address
// without a token).
WebSocketGate read_websocket_gate(const Params& params);

// Answers the HTTP request `socket` brings (on the socket's event loop). `accepted` is called
// once, with the peer's address: with the WebSocket once its handshake is done, or with null
// when the connection was answered otherwise (a page, a refusal) or failed. Returns the stream
// being opened, for a caller that stops to close it.
using WebSocketAccepted = std::function<void(std::shared_ptr<WebSocket>, std::string peer)>;
std::shared_ptr<WebSocket> open_websocket(boost::asio::ip::tcp::socket socket,
                                          std::shared_ptr<const WebSocketGate> gate,
                                          WebSocketAccepted accepted);

// Ends an open WebSocket the server is done with, on its event loop: a close frame with `code`
// (RFC 6455 §7.4: 1000 normal, 1001 going away), then the connection is closed once the client
// answered with its own or after a second, whichever comes first. The stream must have no write
// in progress (a close frame is a write); a read in progress ends with the close.
void close_websocket(const std::shared_ptr<WebSocket>& ws,
                     boost::beast::websocket::close_code code);

// The handshakes a WebSocket server actor has in progress: counted against its max_connections,
// closed when it stops. On the event loop's thread only; `accepted` must keep its owner alive.
class WebSocketHandshakes {
 public:
  void open(boost::asio::ip::tcp::socket socket, std::shared_ptr<const WebSocketGate> gate,
            WebSocketAccepted accepted);
  std::size_t in_progress() const { return in_progress_; }
  void close_all();

 private:
  std::size_t in_progress_ = 0;
  std::list<std::weak_ptr<WebSocket>> opening_;
};

}  // namespace cwf::net
