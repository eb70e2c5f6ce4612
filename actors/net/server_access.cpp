#include "actors/net/server_access.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "actors/net/credentials.hpp"
#include "actors/net/net_params.hpp"
#include "actors/net/query_string.hpp"

namespace cwf::net {

namespace http = boost::beast::http;

std::vector<ParamSpec> server_access_params(const std::string& clients) {
  return {
      {"listen", ParamType::string, std::nullopt,
       "HOST:PORT to accept " + clients + " on (loopback: 127.0.0.1:PORT; port 0: any free one)"},
      {"token", ParamType::string, Value(),
       "clients must present it (Authorization: Bearer ..., or ?token=... in the URL); "
       "required when listening on an address other than loopback"},
      {"origins", ParamType::strings, Value(),
       "web pages (origins, e.g. http://app.example:8080) whose requests are taken without the "
       "token, besides loopback pages"}};
}

ServerAccess read_server_access(const Params& params) {
  ServerAccess access;
  access.listen = params.get_string("listen");
  const boost::asio::ip::tcp::endpoint endpoint = listen_endpoint(access.listen);
  if (actors::is_set(params, "token")) access.token = params.get_string("token");
  if (actors::is_set(params, "origins")) access.origins = params.get_strings("origins");
  if (access.token.empty() && !endpoint.address().is_loopback())
    throw ParamError("listen", "listening on " + access.listen +
                                   ", reachable from other machines, needs a token (token: ...)");
  return access;
}

bool presents_token(const http::request_header<>& request, const std::string& token) {
  if (token.empty()) return true;
  std::optional<std::string_view> bearer =
      bearer_token(std_view(request[http::field::authorization]));
  if (bearer && same_secret(*bearer, token)) return true;
  // In the URL, percent-encoded as a browser or a client library sends it.
  std::map<std::string, std::string> query;
  try {
    query = parse_query(std_view(request.target()));
  } catch (const std::invalid_argument&) {
    return false;  // a malformed query presents nothing
  }
  auto given = query.find("token");
  return given != query.end() && same_secret(given->second, token);
}

namespace {

// The host of "scheme://host[:port]" or of a Host header "host[:port]", lower-cased as given.
std::string_view host_of(std::string_view text) {
  if (const std::size_t scheme = text.find("://"); scheme != std::string_view::npos)
    text.remove_prefix(scheme + 3);
  if (text.starts_with("[")) return text.substr(0, text.find(']') + 1);
  return text.substr(0, text.find(':'));
}

bool is_loopback_host(std::string_view host) {
  return host == "localhost" || host == "[::1]" || host.starts_with("127.");
}

}  // namespace

std::string refused_origin(const http::request_header<>& request, const ServerAccess& access) {
  const bool trusted = !access.token.empty();  // presents_token passed: the token is known
  const std::string_view origin = std_view(request[http::field::origin]);
  if (!origin.empty() && !trusted && !is_loopback_host(host_of(origin)) &&
      std::find(access.origins.begin(), access.origins.end(), origin) == access.origins.end())
    return "requests from the page " + std::string(origin) +
           " are not taken (origins: lists the pages allowed)";
  const std::string_view host = host_of(std_view(request[http::field::host]));
  if (!trusted && !is_loopback_host(host) && host != host_of(access.listen))
    return "this server answers to loopback names, not '" + std::string(host) + "'";
  return {};
}

std::string_view target_path(boost::beast::string_view target) {
  const std::string_view whole = std_view(target);
  return whole.substr(0, whole.find('?'));
}

}  // namespace cwf::net
