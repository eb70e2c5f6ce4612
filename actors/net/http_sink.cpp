#include "actors/net/http_sink.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <deque>
#include <optional>

#include "actors/actor_type_util.hpp"
#include "actors/net/net_params.hpp"

namespace cwf::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

void parse_http_url(const std::string& url, HttpSinkOptions& options) {
  if (url.starts_with("https://"))
    throw ParamError("url",
                     "https is not supported: post to an http:// URL (e.g. through a "
                     "local TLS proxy)");
  if (!url.starts_with("http://"))
    throw ParamError("url", "expected http://HOST[:PORT][/PATH], got '" + url + "'");
  const std::string rest = url.substr(7);
  const std::size_t slash = rest.find('/');
  options.host = rest.substr(0, slash);
  options.target = slash == std::string::npos ? "/" : rest.substr(slash);
  if (options.host.empty()) throw ParamError("url", "no host in '" + url + "'");
  const std::size_t colon = options.host.rfind(':');
  options.address = colon == std::string::npos ? options.host + ":80" : options.host;
  split_address(options.address, "url");
}

namespace {
struct Batch {
  std::shared_ptr<const std::string> body;
  std::size_t lines = 0;
};
}  // namespace

struct HttpSink::Shared final : SinkEndpoint {
  Shared(HttpSinkOptions o, asio::io_context& c)
      : SinkEndpoint(c), options(std::move(o)), timer(c), resolver(c) {
    backoff.min = options.retry_min;
    backoff.max = options.retry_max;
  }

  const HttpSinkOptions options;
  std::atomic<unsigned> last_refusal{0};  // the status of the last batch the server refused

  // ---- the event loop's (only its thread touches these) ----
  asio::steady_timer timer;  // retry backoff
  tcp::resolver resolver;
  Backoff backoff;
  bool stopped = false;
  bool busy = false;  // a request in flight, or waiting to be sent again
  std::deque<Batch> backlog;
  std::size_t backlog_lines = 0;
  std::optional<beast::tcp_stream> stream;
  http::request<http::string_body> request;
  beast::flat_buffer buffer;
  http::response<http::string_body> response;

  void send(const std::shared_ptr<Shared>& self, Batch batch) {
    if (stopped || (!backlog.empty() && backlog_lines + batch.lines > options.sink.max_pending)) {
      dropped += batch.lines;
      return;
    }
    backlog_lines += batch.lines;
    queued += batch.lines;
    backlog.push_back(std::move(batch));
    pump(self);
  }

  void pump(const std::shared_ptr<Shared>& self) {
    if (busy || backlog.empty() || stopped) return;
    busy = true;
    if (stream) return post_front(self);
    // Resolving and connecting are bounded by `timeout` too, and stop() cancels them.
    const auto [host, port] = split_address(options.address, "url");
    resolver.async_resolve(
        host, port, [self](beast::error_code error, tcp::resolver::results_type found) {
          if (self->stopped) return;
          if (error) return self->retry_later(self);
          self->stream.emplace(self->context);
          self->stream->expires_after(std::chrono::nanoseconds(self->options.timeout));
          self->stream->async_connect(found, [self](beast::error_code e, const tcp::endpoint&) {
            if (self->stopped) return;
            if (e) return self->connection_lost(self);
            self->post_front(self);
          });
        });
  }

  void post_front(const std::shared_ptr<Shared>& self) {
    request = {http::verb::post, options.target, 11};
    request.set(http::field::host, options.host);
    request.set(http::field::content_type,
                options.format == RecordDecoder::Format::csv ? "text/csv" : "application/x-ndjson");
    if (!options.token.empty()) request.set(http::field::authorization, "Bearer " + options.token);
    request.keep_alive(true);
    request.body() = *backlog.front().body;
    request.prepare_payload();
    stream->expires_after(std::chrono::nanoseconds(options.timeout));
    http::async_write(*stream, request, [self](beast::error_code error, std::size_t) {
      if (self->stopped) return;
      if (error) return self->connection_lost(self);
      self->response = {};
      http::async_read(*self->stream, self->buffer, self->response,
                       [self](beast::error_code e, std::size_t) {
                         if (self->stopped) return;  // wrapup counted what was left
                         if (e) return self->connection_lost(self);
                         self->answered(self);
                       });
    });
  }

  void answered(const std::shared_ptr<Shared>& self) {
    const unsigned status = response.result_int();
    if (!response.keep_alive()) {
      stream.reset();
      buffer.clear();
    }
    if (status >= 500 || status == 408 || status == 429) return retry_later(self);
    Batch done = std::move(backlog.front());
    backlog.pop_front();
    backlog_lines -= done.lines;
    queued -= done.lines;
    if (status >= 300) {
      last_refusal = status;
      dropped += done.lines;
    }
    backoff.connected();
    busy = false;
    pump(self);
    check_flushed();
  }

  void connection_lost(const std::shared_ptr<Shared>& self) {
    stream.reset();
    buffer.clear();
    retry_later(self);  // the same batch again: at least once
  }

  void retry_later(const std::shared_ptr<Shared>& self) {
    if (stopped) return;
    timer.expires_after(std::chrono::nanoseconds(backoff.failed()));
    timer.async_wait([self](beast::error_code error) {
      if (error || self->stopped) return;
      self->busy = false;
      self->pump(self);
    });
  }

  void stop() override {
    stopped = true;
    timer.cancel();
    resolver.cancel();
    if (stream) stream->close();
  }
};

HttpSink::HttpSink(HttpSinkOptions options)
    : PushSink(kPorts, "http_sink", "lines", options.sink),
      options_(std::move(options)),
      encoder_(options_.format) {}

std::shared_ptr<SinkEndpoint> HttpSink::open(asio::io_context& loop) {
  encoder_ = RecordEncoder(options_.format);
  return std::make_shared<Shared>(options_, loop);
}

std::string HttpSink::why_dropped() const {
  auto shared = std::static_pointer_cast<const Shared>(endpoint());
  const unsigned refusal = shared ? shared->last_refusal.load() : 0;
  return "max_pending lines waited already, or the server refused them" +
         (refusal ? " (last: HTTP " + std::to_string(refusal) + ")" : std::string());
}

void HttpSink::fire(FiringContext& context) {
  std::string lines;
  std::size_t count = 0;
  for (const Event& event : context.window()) {
    encoder_.append(lines, event.token);
    ++count;
  }
  // Each request is a document of its own: CSV bodies begin with the header.
  auto body = std::make_shared<std::string>(encoder_.header() + lines);
  auto shared = std::static_pointer_cast<Shared>(endpoint());
  asio::post(shared->context, [shared, batch = Batch{std::move(body), count}]() mutable {
    shared->send(shared, std::move(batch));
  });
  report_losses(context);
}

ActorType http_sink_type() {
  return actors::make_type(
      "http_sink",
      "Records POSTed to a URL (url: http://127.0.0.1:9003/events), one request a firing: JSON "
      "lines or CSV under a header. Failed requests (no connection, timeout, 5xx, 408, 429) are "
      "sent again with backoff; refused ones (other 4xx) are reported as dropped. Written on the "
      "network event loop.",
      [] {
        std::vector<ParamSpec> params{
            {"url", ParamType::string, std::nullopt, "http://HOST[:PORT][/PATH] to POST to"},
            {"token", ParamType::string, Value(), "sent as Authorization: Bearer TOKEN"},
            format_param(),
            {"timeout", ParamType::duration, Value(static_cast<std::int64_t>(10 * kSecond)),
             "how long a request may take before it is sent again"}};
        for (ParamSpec& spec : push_sink_params("lines", " to be posted"))
          params.push_back(std::move(spec));
        return params;
      }(),
      HttpSink::kPorts,
      [](const Params& params) -> std::unique_ptr<Actor> {
        HttpSinkOptions options;
        parse_http_url(params.get_string("url"), options);
        if (actors::is_set(params, "token")) options.token = params.get_string("token");
        options.format = read_format(params);
        options.timeout = params.get_duration("timeout");
        if (options.timeout <= 0) throw ParamError("timeout", "timeout must be positive");
        options.sink = read_push_sink_options(params);
        return std::make_unique<HttpSink>(std::move(options));
      });
}

}  // namespace cwf::net
