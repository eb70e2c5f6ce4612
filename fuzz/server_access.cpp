// Fuzzes who may talk to a server actor (actors/net/server_access.hpp): a request's target (its
// query holds `token=`), Origin, Host and Authorization headers, as any client may send them.
// The input's lines are those four; its first byte says whether a token is required. A token
// is taken exactly when it is presented, as an independent reading of the rules below finds it:
// "Bearer TOKEN" with the scheme in any case and one or more spaces (RFC 7235), or the query's
// `token` pair, percent-decoded (a malformed query or a name given twice presents nothing).
// Without a token every request presents it; a request with no Origin whose Host is 127.0.0.1
// is never refused for its origin. A header's value is what an HTTP parser delivers: without the
// spaces and tabs around it (RFC 7230 section 3.2.4; Beast trims them when a field is set too).
// A crash, undefined behaviour or a broken rule is a finding.
#include <boost/beast/http/message.hpp>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
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

constexpr std::string_view kToken = "t0k";

// "Bearer" in any case, one or more spaces, then the token.
bool bearer_presents(std::string_view authorization) {
  if (authorization.size() < 7) return false;
  for (std::size_t i = 0; i < 6; ++i)
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != "bearer"[i]) return false;
  if (authorization[6] != ' ') return false;
  const std::size_t token = authorization.find_first_not_of(' ', 6);
  return token != std::string_view::npos && authorization.substr(token) == kToken;
}

// Percent-decoding with '+' as a space; false when a '%' is not followed by two hex digits.
bool decoded(std::string_view text, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%') {
      if (i + 2 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
          !std::isxdigit(static_cast<unsigned char>(text[i + 2])))
        return false;
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += text[i] == '+' ? ' ' : text[i];
    }
  }
  return true;
}

// The query's `token` pair is the token; a malformed query, or one that names a pair twice,
// presents nothing.
bool query_presents(std::string_view target) {
  const std::size_t question = target.find('?');
  if (question == std::string_view::npos) return false;
  std::set<std::string> names;
  bool presents = false;
  std::string name;
  std::string value;
  for (std::string_view rest = target.substr(question + 1); !rest.empty();) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t equals = pair.find('=');
    if (!decoded(pair.substr(0, equals), name)) return false;
    if (!decoded(equals == std::string_view::npos ? "" : pair.substr(equals + 1), value))
      return false;
    if (!names.insert(name).second) return false;
    if (name == "token") presents = value == kToken;
  }
  return presents;
}

// The field value without the optional whitespace around it.
std::string field_value(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return std::string(line.substr(first, line.find_last_not_of(" \t") - first + 1));
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
  const std::string origin = field_value(parts[1]);
  const std::string host = field_value(parts[2]);
  const std::string authorization = field_value(parts[3]);

  http::request_header<> request;
  request.method(http::verb::post);
  request.target(target);
  // The lines as sent; Beast trims them as it stores them.
  if (!parts[1].empty()) request.set(http::field::origin, parts[1]);
  if (!parts[2].empty()) request.set(http::field::host, parts[2]);
  if (!parts[3].empty()) request.set(http::field::authorization, parts[3]);

  cwf::net::ServerAccess access;
  access.listen = "127.0.0.1:9000";
  if (with_token) access.token = std::string(kToken);
  const bool presented = cwf::net::presents_token(request, access.token);
  if (!with_token && !presented) finding("no token required, yet a request did not present it");
  if (with_token && presented && !bearer_presents(authorization) && !query_presents(target))
    finding("a token taken that was not presented");
  if (with_token && !presented && (bearer_presents(authorization) || query_presents(target)))
    finding("a token presented and not taken");
  const std::string why = cwf::net::refused_origin(request, access);
  if (!with_token && origin.empty() && host == "127.0.0.1" && !why.empty())
    finding("a loopback request without Origin refused");
  return 0;
}
