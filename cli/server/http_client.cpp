#include "cli/server/http_client.hpp"

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace cwf::cli {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

ApiResponse http_call(const std::string& server, const std::string& method,
                      const std::string& target, const std::string& body,
                      const std::optional<std::string>& token, std::chrono::milliseconds timeout) {
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

  net::io_context io;
  beast::tcp_stream stream(io);
  beast::error_code ec;
  tcp::resolver resolver(io);
  auto endpoints = resolver.resolve(host, port, ec);
  if (ec) throw ServerUnreachable("cannot resolve " + host + ": " + ec.message());
  stream.expires_after(timeout);
  stream.connect(endpoints, ec);
  if (ec) throw ServerUnreachable("no server answers at " + server + " (" + ec.message() + ")");
  // Blocking reads and writes have no Beast timeout: the socket's own limits stand in for it.
  timeval limit{};
  limit.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  limit.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  for (int option : {SO_RCVTIMEO, SO_SNDTIMEO})
    setsockopt(stream.socket().native_handle(), SOL_SOCKET, option, &limit, sizeof limit);

  http::request<http::string_body> request;
  request.method(http::string_to_verb(method));
  request.target(target);
  request.version(11);
  request.set(http::field::host, authority);
  request.set(http::field::user_agent, "cwf");
  if (token) request.set(http::field::authorization, "Bearer " + *token);
  if (!body.empty()) {
    request.set(http::field::content_type, "application/json");
    request.body() = body;
  }
  request.keep_alive(false);
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
