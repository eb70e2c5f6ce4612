// websocket_sink: records pushed to WebSocket clients — browsers and programs — connected to a
// server the actor runs (`listen: 127.0.0.1:9002`, seed 002 §4.6, l.663-675): every record is
// one text message, its JSON object, sent to every client connected then (a broadcast: records
// while no client is connected reach no one, and are counted). The server can serve a page on
// GET / (`page:`) and asks for a token when it listens beyond loopback (WebSocketGate).
//
// It is a PushSink: written on the network event loop, at most `max_pending` messages waiting
// per client; a client that cannot keep up is disconnected as a slow consumer and what it missed
// is reported as dropped. What clients send is read and ignored.
#pragma once

#include <memory>
#include <string>

#include "actors/net/push_sink.hpp"
#include "actors/net/websocket_gate.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::net {

struct WebSocketSinkOptions {
  WebSocketGate gate;
  PushSinkOptions sink;  // max_pending: messages per client
};

class WebSocketSink final : public PushSink {
 public:
  static inline const ActorPorts kPorts{{{"in", "records to send, one JSON message each"}}, {}};

  explicit WebSocketSink(WebSocketSinkOptions options);

  void fire(FiringContext& context) override;

  struct Shared;  // the endpoint on the event loop (websocket_sink.cpp)

 private:
  std::shared_ptr<SinkEndpoint> open(boost::asio::io_context& loop) override;
  std::string why_dropped() const override { return "a client that left or could not keep up"; }

  WebSocketSinkOptions options_;
};

ActorType websocket_sink_type();

}  // namespace cwf::net
