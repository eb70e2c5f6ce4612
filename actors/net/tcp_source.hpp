// tcp_source: records pushed over TCP, one per line (newline-delimited JSON objects, or CSV lines
// under a header line), from programs that connect to it (`listen: 127.0.0.1:9000`) or from a
// server it connects to (`connect: host:port`, again with backoff whenever the connection fails
// or closes). Sockets are read on the network actors' event loop (IoLoop), never on a worker:
// the source waits for its ExternalWake while nothing arrives.
//
// Limits: a line longer than `max_message` bytes, and a line that is not a JSON object (or a CSV
// line with another number of fields than its header), go to `errors` as {peer, text, error}
// (the text cut to 200 bytes) and are reported; connections beyond `max_connections` are closed
// at once and counted; while `max_pending` records wait to be emitted, the sockets are not read
// (TCP slows the senders down) instead of memory growing.
//
// It ends at `limit` records, or with `end_on_close` when the server it connected to closes the
// connection (connect) or the last client leaves after one came (listen); otherwise it runs until
// the run is stopped. Records received but not emitted when the run ends are reported as dropped.
#pragma once

#include <memory>
#include <string>

#include "actors/net/push_source.hpp"
#include "actors/net/record_decoder.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::net {

struct TcpSourceOptions {
  std::string listen;   // "host:port" to accept connections on (port 0: any free one)
  std::string connect;  // "host:port" to connect to; exactly one of the two is set
  RecordDecoder::Format format = RecordDecoder::Format::jsonl;
  PushSourceOptions push;
  std::size_t max_connections = 64;
  bool end_on_close = false;
  Duration reconnect_min = 100 * kMillisecond;
  Duration reconnect_max = 5 * kSecond;
};

class TcpSource final : public PushSource {
 public:
  static inline const ActorPorts kPorts{
      {},
      {{"out", "one record per line received"},
       {"errors", "malformed or oversized lines as {peer, text, error} (optional)"}}};

  using Options = TcpSourceOptions;
  explicit TcpSource(TcpSourceOptions options);

  struct Shared;  // the endpoint on the event loop (tcp_source.cpp)

 private:
  std::shared_ptr<PushEndpoint> open(boost::asio::io_context& loop, ExternalWake wake) override;

  TcpSourceOptions options_;
};

ActorType tcp_source_type();

}  // namespace cwf::net
