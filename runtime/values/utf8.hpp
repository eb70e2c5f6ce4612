// Unicode helpers shared by the readers of "\u" escapes (the JSON parser and the expression
// lexer): hex digits, UTF-16 surrogate pairs and UTF-8 encoding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cwf {

// The value of a hex digit (either case), or -1.
inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The value of the four hex digits `text` starts with (as after "\u"); nullopt when it is shorter
// or one of them is not a hex digit.
std::optional<std::uint32_t> parse_hex4(std::string_view text);

inline bool is_high_surrogate(std::uint32_t u) {
  return u >= 0xD800 && u <= 0xDBFF;
}
inline bool is_low_surrogate(std::uint32_t u) {
  return u >= 0xDC00 && u <= 0xDFFF;
}
// The code point a high and a low surrogate stand for together.
inline std::uint32_t combine_surrogates(std::uint32_t high, std::uint32_t low) {
  return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
}

// Appends the UTF-8 encoding of code point `cp` (at most 0x10FFFF).
void append_utf8(std::string& out, std::uint32_t cp);

}  // namespace cwf
