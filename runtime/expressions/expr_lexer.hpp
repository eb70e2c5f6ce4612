// Tokens of the expression language.
//
// The lexer records, for every token, whether whitespace preceded it. The parser needs that to
// tell a path step from a division: `/a/b` reads field b of field a, while `/a / b` divides.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cwf::expr {

enum class Tok : std::uint8_t {
  end,
  identifier,  // names and the words and/or/not/true/false/null
  integer,
  real,
  string,
  lparen,
  rparen,
  lbracket,
  rbracket,
  lbrace,
  rbrace,
  comma,
  colon,
  question,
  plus,
  minus,
  star,
  slash,
  percent,
  eq,  // ==
  ne,  // !=
  lt,
  le,
  gt,
  ge,
  and_,  // &&
  or_,   // ||
  bang,  // !
};

struct Token {
  Tok kind = Tok::end;
  std::string_view text;  // the source characters of the token
  int column = 1;         // 1-based
  bool space_before = false;
  std::uint64_t integer = 0;  // Tok::integer, unsigned so that -9223372036854775808 can be written
  double real = 0;            // Tok::real
  std::string string;         // Tok::string, escapes decoded
};

// Splits `source` into tokens ending with one Tok::end. Throws ExprError on a malformed token.
std::vector<Token> tokenize(std::string_view source);

// How a token is named in error messages: 'x', or "end of expression".
std::string describe(const Token& token);

bool is_identifier_start(char c);
bool is_identifier_char(char c);

}  // namespace cwf::expr
