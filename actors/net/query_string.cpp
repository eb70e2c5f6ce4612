#include "actors/net/query_string.hpp"

#include <cctype>
#include <stdexcept>

namespace cwf::net {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%') {
      int high = i + 2 < text.size() ? hex_digit(text[i + 1]) : -1;
      int low = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
      if (high < 0 || low < 0)
        throw std::invalid_argument("the query has a '%' not followed by two hexadecimal digits");
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> parse_query(std::string_view target) {
  std::map<std::string, std::string> query;
  std::size_t question = target.find('?');
  if (question == std::string_view::npos) return query;
  std::string_view rest = target.substr(question + 1);
  while (!rest.empty()) {
    std::size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (pair.empty()) continue;
    std::size_t equals = pair.find('=');
    std::string name = decode(pair.substr(0, equals));
    std::string value = equals == std::string_view::npos ? "" : decode(pair.substr(equals + 1));
    if (!query.emplace(name, std::move(value)).second)
      throw std::invalid_argument("the query gives '" + name + "' twice");
  }
  return query;
}

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

}  // namespace cwf::net
