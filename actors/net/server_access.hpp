// Who may talk to a server actor (websocket_source, websocket_sink, http_source): it listens on
// loopback unless the file says otherwise, and one that listens on any other address requires a
// token — the loader refuses the file without one. A client presents it as
// `Authorization: Bearer ...` or, for browsers (which cannot set headers on a WebSocket), as
// `?token=...` in the URL; both are compared in a time that does not depend on the token.
//
// Browsers need one more rule: any page the user has open may send requests to a loopback
// server. A request from a page (it has an Origin header) is taken only from a loopback page
// (http://127.0.0.1:..., http://localhost:...) or one of `origins`, or with the token; and
// without a token the Host header must name a loopback host, so that a page that had its own
// name point at 127.0.0.1 (DNS rebinding) is refused too.
#pragma once

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/message.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "runtime/loading/actor_registry.hpp"

namespace cwf::net {

struct ServerAccess {
  std::string listen;                // "host:port"
  std::string token;                 // empty: none required
  std::vector<std::string> origins;  // pages allowed besides loopback ones ("http://a.b:8080")
};

// listen, token, origins; `clients` names who connects ("WebSocket clients").
std::vector<ParamSpec> server_access_params(const std::string& clients);
// Throws ParamError naming the parameter.
ServerAccess read_server_access(const Params& params);

// Whether `request` presents `token` (always, when no token is required).
bool presents_token(const boost::beast::http::request_header<>& request, const std::string& token);
// Why `request`, which passed presents_token, is refused as coming from a page it should not
// (Origin) or through a name that is not this machine's (Host); empty when it is taken.
std::string refused_origin(const boost::beast::http::request_header<>& request,
                           const ServerAccess& access);

// The path of a request target, without its query.
std::string_view target_path(boost::beast::string_view target);

// Boost 1.74's Beast speaks boost::string_view.
inline std::string_view std_view(boost::beast::string_view view) {
  return {view.data(), view.size()};
}

}  // namespace cwf::net
