// tcp_sink: records sent over TCP, one per line (JSON objects, or CSV lines under a header line
// each connection gets first), to a server it connects to (`connect: host:port`, again with
// backoff whenever the connection fails or closes) or to every program connected to it
// (`listen: 127.0.0.1:9000`). Sockets are written on the network actors' event loop (IoLoop):
// a firing only hands its lines over.
//
// Nothing grows without bound. Each peer has at most `max_pending` lines waiting to be written
// (connect: while no connection is up, too); beyond that a listening sink disconnects the peer
// as a slow consumer, and a connecting one drops the lines; both are reported as dropped, so the
// run does not end as if all arrived. A listening sink sends what comes while a peer is
// connected (a broadcast: lines sent while no one is connected reach no one, and are counted).
// When the run ends the sink waits up to `linger` for what is queued to be written; what is left
// is reported as dropped. A batch being written when a connection broke is sent again on the
// next one (at least once).
#pragma once

#include <memory>
#include <string>

#include "actors/net/push_sink.hpp"
#include "actors/net/record_decoder.hpp"
#include "actors/net/record_encoder.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::net {

struct TcpSinkOptions {
  std::string listen;   // "host:port" to accept connections on (port 0: any free one)
  std::string connect;  // "host:port" to connect to; exactly one of the two is set
  RecordDecoder::Format format = RecordDecoder::Format::jsonl;
  PushSinkOptions sink;  // max_pending: lines per peer (connect: also while disconnected)
  std::size_t max_connections = 64;
  Duration reconnect_min = 100 * kMillisecond;
  Duration reconnect_max = 5 * kSecond;
};

class TcpSink final : public PushSink {
 public:
  static inline const ActorPorts kPorts{{{"in", "records to send, one line each"}}, {}};

  explicit TcpSink(TcpSinkOptions options);

  void fire(FiringContext& context) override;

  struct Shared;  // the endpoint on the event loop (tcp_sink.cpp)

 private:
  std::shared_ptr<SinkEndpoint> open(boost::asio::io_context& loop) override;
  std::string why_dropped() const override;

  TcpSinkOptions options_;
  RecordEncoder encoder_;
};

ActorType tcp_sink_type();

}  // namespace cwf::net
