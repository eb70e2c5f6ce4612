// http_source: records POSTed to an endpoint the actor serves (`listen: 127.0.0.1:9003`,
// `path: /events`): webhooks, and the mediators of seed 002 §4.6 (l.663-675) that post updates
// to a URL of the workflow server. A body of `Content-Type: application/json` is one JSON object
// or an array of them; any other body is lines, as tcp_source reads them (JSON objects, or CSV
// under the body's header line).
//
// Each request is answered once its records are queued: 202 Accepted with
// {"accepted": n, "malformed": m} (malformed lines also go to `errors`), 400 when nothing in the
// body was a record, 503 with Retry-After while `max_pending` records wait (the sender retries:
// nothing is taken, so nothing is lost), 413 for a body over `max_body`, 401 without the token,
// 404 for another path, 405 for another method. A request is judged on its header before its
// body is read (`Expect: 100-continue` is answered); a refused one ends its connection, an
// accepted one keeps it alive for the next.
//
// It is a PushSource: served on the network event loop, never on a worker.
#pragma once

#include <memory>
#include <string>

#include "actors/net/push_source.hpp"
#include "actors/net/record_decoder.hpp"
#include "actors/net/server_access.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::net {

struct HttpSourceOptions {
  ServerAccess access;
  std::string path = "/";
  RecordDecoder::Format format = RecordDecoder::Format::jsonl;
  PushSourceOptions push;
  std::size_t max_body = 8 << 20;
  std::size_t max_connections = 64;
};

class HttpSource final : public PushSource {
 public:
  static inline const ActorPorts kPorts{
      {},
      {{"out", "one record per object or line POSTed"},
       {"errors", "malformed or oversized lines as {peer, text, error} (optional)"}}};

  using Options = HttpSourceOptions;
  explicit HttpSource(HttpSourceOptions options);

  struct Shared;  // the endpoint on the event loop (http_source.cpp)

 private:
  std::shared_ptr<PushEndpoint> open(boost::asio::io_context& loop, ExternalWake wake) override;

  HttpSourceOptions options_;
};

ActorType http_source_type();

}  // namespace cwf::net
