#include "cli/server/http_client.hpp"

#include <sys/socket.h>
#include <sys/time.h>

#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <limits>

namespace cwf::cli {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// A connected stream to `server` ("http://HOST:PORT"), reads and writes limited to `timeout`.
struct ServerConnection {
  net::io_context io;
  beast::tcp_stream stream{io};
  std::string authority;  // HOST:PORT, for the Host header
};

void connect(ServerConnection& connection, const std::string& server,
             std::chrono::milliseconds timeout) {
  const std::string scheme = "http://";
  if (server.compare(0, scheme.size(), scheme) != 0)
    throw std::invalid_argument("the server's address must start with http:// (got '" + server +
                                "')");
  std::string authority = server.substr(scheme.size());
  while (!authority.empty() && authority.back() == '/')
    authority.pop_back();
  std::size_t colon = authority.rfind(':');
  if (colon == std::string::npos || authority.find('/') != std::string::npos)
    throw std::invalid_argument("the server's address must be http://HOST:PORT (got '" + server +
                                "')");
  std::string host = authority.substr(0, colon), port = authority.substr(colon + 1);
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  connection.authority = authority;

  beast::error_code ec;
  tcp::resolver resolver(connection.io);
  auto endpoints = resolver.resolve(host, port, ec);
  if (ec) throw ServerUnreachable("cannot resolve " + host + ": " + ec.message());
  connection.stream.expires_after(timeout);
  connection.stream.connect(endpoints, ec);
  if (ec) throw ServerUnreachable("no server answers at " + server + " (" + ec.message() + ")");
  // Blocking reads and writes have no Beast timeout: the socket's own limits stand in for it.
  timeval limit{};
  limit.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  limit.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  for (int option : {SO_RCVTIMEO, SO_SNDTIMEO})
    setsockopt(connection.stream.socket().native_handle(), SOL_SOCKET, option, &limit,
               sizeof limit);
}

http::request<http::string_body> request_for(const ServerConnection& connection,
                                             const std::string& method, const std::string& target,
                                             const std::optional<std::string>& token) {
  http::request<http::string_body> request;
  request.method(http::string_to_verb(method));
  request.target(target);
  request.version(11);
  request.set(http::field::host, connection.authority);
  request.set(http::field::user_agent, "cwf");
  if (token) request.set(http::field::authorization, "Bearer " + *token);
  request.keep_alive(false);
  return request;
}

}  // namespace

ApiResponse http_call(const std::string& server, const std::string& method,
                      const std::string& target, const std::string& body,
                      const std::optional<std::string>& token, std::chrono::milliseconds timeout) {
  ServerConnection connection;
  connect(connection, server, timeout);
  beast::tcp_stream& stream = connection.stream;
  beast::error_code ec;
  http::request<http::string_body> request = request_for(connection, method, target, token);
  if (!body.empty()) {
    request.set(http::field::content_type, "application/json");
    request.body() = body;
  }
  request.prepare_payload();
  http::write(stream, request, ec);
  // A server that refuses the request before it is all sent (too large) answers and stops
  // reading: its answer is read all the same.
  const beast::error_code sending = ec;
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  http::read(stream, buffer, parser, ec);
  if (ec && sending) throw ServerUnreachable("cannot send to " + server + ": " + sending.message());
  if (ec) throw ServerUnreachable("no answer from " + server + ": " + ec.message());
  const auto& response = parser.get();
  ApiResponse answer;
  answer.status = static_cast<int>(response.result_int());
  answer.content_type = std::string(response[http::field::content_type]);
  answer.body = response.body();
  if (auto location = response.find(http::field::location); location != response.end())
    answer.headers.push_back({"Location", std::string(location->value())});
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  return answer;
}

}  // namespace cwf::cli

namespace cwf::cli {

ApiResponse http_events(const std::string& server, const std::string& target,
                        const std::optional<std::string>& token,
                        const std::function<bool(const ServerEvent&)>& on_event,
                        std::chrono::milliseconds timeout) {
  ServerConnection connection;
  connect(connection, server, timeout);
  beast::tcp_stream& stream = connection.stream;
  beast::error_code ec;
  http::request<http::string_body> request = request_for(connection, "GET", target, token);
  request.set(http::field::accept, "text/event-stream");
  request.prepare_payload();
  http::write(stream, request, ec);
  if (ec) throw ServerUnreachable("cannot send to " + server + ": " + ec.message());
  beast::flat_buffer buffer;
  http::response_parser<http::buffer_body> parser;
  // A stream has no end set in advance. (Not boost::none: Boost 1.74 then compares a known
  // length with "no limit" as if the limit were smaller.)
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  http::read_header(stream, buffer, parser, ec);
  if (ec) throw ServerUnreachable("no answer from " + server + ": " + ec.message());
  ApiResponse answer;
  answer.status = static_cast<int>(parser.get().result_int());
  answer.content_type = std::string(parser.get()[http::field::content_type]);
  const bool events = answer.status == 200 && answer.content_type == "text/event-stream";
  // Events are separated by an empty line; each has `event:` (none: a message) and `data:`.
  std::string text;
  ServerEvent event;
  auto take_events = [&]() -> bool {
    std::size_t line_end;
    while ((line_end = text.find('\n')) != std::string::npos) {
      std::string line = text.substr(0, line_end);
      text.erase(0, line_end + 1);
      if (line.empty()) {
        if (!event.data.empty() || !event.type.empty())
          if (!on_event(event)) return false;
        event = {};
      } else if (line.rfind("event: ", 0) == 0) {
        event.type = line.substr(7);
      } else if (line.rfind("data: ", 0) == 0) {
        event.data += line.substr(6);
      }  // ": ..." lines are comments (keep-alives)
    }
    return true;
  };
  std::array<char, 16 * 1024> chunk;
  while (!parser.is_done()) {
    parser.get().body().data = chunk.data();
    parser.get().body().size = chunk.size();
    http::read_some(stream, buffer, parser, ec);  // what has come: events are shown as they come
    if (ec == http::error::need_buffer) ec = {};
    const std::size_t got = chunk.size() - parser.get().body().size;
    if (events) {
      text.append(chunk.data(), got);
      if (!take_events()) break;
    } else {
      answer.body.append(chunk.data(), got);
    }
    if (ec == http::error::end_of_stream || ec == net::error::eof) break;
    if (ec) throw ServerUnreachable("the stream from " + server + " broke: " + ec.message());
  }
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  return answer;
}

}  // namespace cwf::cli
