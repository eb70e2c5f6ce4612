// websocket_source: records pushed by WebSocket clients — browsers and programs — to a server
// the actor runs (`listen: 127.0.0.1:9001`, seed 002 §4.6, l.663-675). Each message holds one
// record or several, one a line: JSON objects, or CSV lines under a header line (each client's
// first). The server can serve a page on GET / (`page:`), e.g. the browser application that
// opens the WebSocket; it asks for a token when it listens beyond loopback (WebSocketGate).
//
// It is a PushSource: read on the network event loop, never on a worker. The limits are
// tcp_source's: a line longer than `max_message` bytes or malformed goes to `errors` and the
// client goes on; clients beyond `max_connections` are refused and counted; while `max_pending`
// records wait, the clients are not read (TCP slows them down). It ends at `limit` records, or
// with `end_on_close` once the last client left after one came.
#pragma once

#include <memory>

#include "actors/net/push_source.hpp"
#include "actors/net/record_decoder.hpp"
#include "actors/net/websocket_gate.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::net {

struct WebSocketSourceOptions {
  WebSocketGate gate;
  RecordDecoder::Format format = RecordDecoder::Format::jsonl;
  PushSourceOptions push;
  bool end_on_close = false;
};

class WebSocketSource final : public PushSource {
 public:
  static inline const ActorPorts kPorts{
      {},
      {{"out", "one record per line of each message received"},
       {"errors", "malformed or oversized lines as {peer, text, error} (optional)"}}};

  using Options = WebSocketSourceOptions;
  explicit WebSocketSource(WebSocketSourceOptions options);

  struct Shared;  // the endpoint on the event loop (websocket_source.cpp)

 private:
  std::shared_ptr<PushEndpoint> open(boost::asio::io_context& loop, ExternalWake wake) override;

  WebSocketSourceOptions options_;
};

ActorType websocket_source_type();

}  // namespace cwf::net
