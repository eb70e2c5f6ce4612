// Fuzzes who may talk to a server actor (actors/net/server_access.hpp): a request's target (its
// query holds `token=`), Origin, Host and Authorization headers, as any client may send them.
// The input's lines are those four; its first byte says whether a token is required. A token
// is taken only when it is presented exactly (the query's `token=` value or "Bearer TOKEN");
// without a token every request presents it; a request with no Origin whose Host is 127.0.0.1
// is never refused for its origin. A crash, undefined behaviour or a broken rule is a finding.
#include <boost/beast/http/message.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "actors/net/server_access.hpp"

namespace {

namespace http = boost::beast::http;

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "%s\n", what);
  std::abort();
}

// Whether the query of `target` has the pair token=`token` (an independent reading).
bool query_has(std::string_view target, std::string_view token) {
  const std::size_t question = target.find('?');
  if (question == std::string_view::npos) return false;
  std::string_view rest = target.substr(question + 1);
  for (;;) {
    const std::size_t amp = rest.find('&');
    if (rest.substr(0, amp) == "token=" + std::string(token)) return true;
    // The first `token=` pair decides.
    if (rest.substr(0, amp).starts_with("token=")) return false;
    if (amp == std::string_view::npos) return false;
    rest.remove_prefix(amp + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const bool with_token = data[0] & 1;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<std::string> parts;
  while (parts.size() < 3) {
    const std::size_t newline = text.find('\n');
    parts.emplace_back(text.substr(0, newline));
    if (newline == std::string_view::npos) {
      text = {};
      break;
    }
    text.remove_prefix(newline + 1);
  }
  parts.emplace_back(text);
  parts.resize(4);
  const std::string& target = parts[0];
  const std::string& origin = parts[1];
  const std::string& host = parts[2];
  const std::string& authorization = parts[3];

  http::request_header<> request;
  request.method(http::verb::post);
  request.target(target);
  if (!origin.empty()) request.set(http::field::origin, origin);
  if (!host.empty()) request.set(http::field::host, host);
  if (!authorization.empty()) request.set(http::field::authorization, authorization);

  cwf::net::ServerAccess access;
  access.listen = "127.0.0.1:9000";
  if (with_token) access.token = "t0k";
  const bool presented = cwf::net::presents_token(request, access.token);
  if (!with_token && !presented) finding("no token required, yet a request did not present it");
  if (with_token && presented && authorization != "Bearer t0k" && !query_has(target, "t0k"))
    finding("a token taken that was not presented");
  const std::string why = cwf::net::refused_origin(request, access);
  if (!with_token && origin.empty() && host == "127.0.0.1" && !why.empty())
    finding("a loopback request without Origin refused");
  return 0;
}
