// http_sink: records POSTed to a URL (`url: http://127.0.0.1:9003/events`) — the mediator of
// seed 002 §4.6 (l.663-675) that posts updates to a URL of a workflow server, or any webhook.
// Each firing's records are one request: lines of JSON objects (Content-Type
// application/x-ndjson) or CSV under a header line (text/csv), POSTed one request at a time and
// in order over a kept-alive connection.
//
// Nothing is lost silently. A request that fails — no connection, a timeout, 5xx, 408, 429 — is
// sent again after a backoff (at least once: the server may have taken a batch whose answer was
// lost); one the server refuses (any other status from 300 on) is reported as dropped with its
// status. At most
// `max_pending` lines wait; what comes beyond is dropped and reported. It is a PushSink: written
// on the network event loop, what is queued at the end of the run gets `linger`.
#pragma once

#include <memory>
#include <string>

#include "actors/net/push_sink.hpp"
#include "actors/net/record_decoder.hpp"
#include "actors/net/record_encoder.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::net {

struct HttpSinkOptions {
  std::string address;  // "host:port" to connect to
  std::string host;     // the Host header: the URL's authority
  std::string target;   // "/path?query"
  std::string token;    // sent as Authorization: Bearer; empty: none
  RecordDecoder::Format format = RecordDecoder::Format::jsonl;
  PushSinkOptions sink;  // max_pending: lines waiting to be posted
  Duration timeout = 10 * kSecond;
  Duration retry_min = 100 * kMillisecond;
  Duration retry_max = 5 * kSecond;
};

// "http://host[:port][/path]" -> options.address, host, target. Throws ParamError("url", ...).
void parse_http_url(const std::string& url, HttpSinkOptions& options);

class HttpSink final : public PushSink {
 public:
  static inline const ActorPorts kPorts{{{"in", "records to post; one request a firing"}}, {}};

  explicit HttpSink(HttpSinkOptions options);

  void fire(FiringContext& context) override;

  struct Shared;  // the endpoint on the event loop (http_sink.cpp)

 private:
  std::shared_ptr<SinkEndpoint> open(boost::asio::io_context& loop) override;
  std::string why_dropped() const override;

  HttpSinkOptions options_;
  RecordEncoder encoder_;
};

ActorType http_sink_type();

}  // namespace cwf::net
