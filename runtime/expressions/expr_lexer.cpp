#include "runtime/expressions/expr_lexer.hpp"

#include <charconv>
#include <limits>
#include <optional>
#include <system_error>

#include "runtime/expressions/expr_error.hpp"
#include "runtime/values/utf8.hpp"

namespace cwf::expr {

bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_identifier_char(char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}

std::string describe(const Token& token) {
  if (token.kind == Tok::end) return "end of expression";
  return "'" + std::string(token.text) + "'";
}

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    for (;;) {
      bool space = skip_space();
      Token token;
      token.space_before = space;
      token.column = column(pos_);
      std::size_t start = pos_;
      if (pos_ >= src_.size()) {
        token.kind = Tok::end;
        tokens.push_back(std::move(token));
        return tokens;
      }
      lex_one(token);
      token.text = src_.substr(start, pos_ - start);
      tokens.push_back(std::move(token));
    }
  }

 private:
  int column(std::size_t pos) const { return static_cast<int>(pos) + 1; }

  [[noreturn]] void fail(std::size_t pos, std::string message) const {
    throw ExprError(std::move(message), column(pos));
  }

  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }

  bool skip_space() {
    std::size_t start = pos_;
    while (pos_ < src_.size() &&
           (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\n' || src_[pos_] == '\r'))
      ++pos_;
    return pos_ != start;
  }

  void lex_one(Token& token) {
    char c = peek();
    if (is_identifier_start(c)) {
      while (is_identifier_char(peek()))
        ++pos_;
      token.kind = Tok::identifier;
      return;
    }
    if (is_digit(c)) return lex_number(token);
    if (c == '"' || c == '\'') return lex_string(token);
    std::size_t start = pos_;
    ++pos_;
    switch (c) {
      case '(':
        token.kind = Tok::lparen;
        return;
      case ')':
        token.kind = Tok::rparen;
        return;
      case '[':
        token.kind = Tok::lbracket;
        return;
      case ']':
        token.kind = Tok::rbracket;
        return;
      case '{':
        token.kind = Tok::lbrace;
        return;
      case '}':
        token.kind = Tok::rbrace;
        return;
      case ',':
        token.kind = Tok::comma;
        return;
      case ':':
        token.kind = Tok::colon;
        return;
      case '?':
        token.kind = Tok::question;
        return;
      case '+':
        token.kind = Tok::plus;
        return;
      case '-':
        token.kind = Tok::minus;
        return;
      case '*':
        token.kind = Tok::star;
        return;
      case '/':
        token.kind = Tok::slash;
        return;
      case '%':
        token.kind = Tok::percent;
        return;
      case '=':
        if (peek() != '=') fail(start, "unexpected '='; use '==' to compare");
        ++pos_;
        token.kind = Tok::eq;
        return;
      case '!':
        token.kind = Tok::bang;
        if (peek() == '=') {
          ++pos_;
          token.kind = Tok::ne;
        }
        return;
      case '<':
        token.kind = Tok::lt;
        if (peek() == '=') {
          ++pos_;
          token.kind = Tok::le;
        }
        return;
      case '>':
        token.kind = Tok::gt;
        if (peek() == '=') {
          ++pos_;
          token.kind = Tok::ge;
        }
        return;
      case '&':
        if (peek() != '&') fail(start, "unexpected '&'; use '&&' or 'and'");
        ++pos_;
        token.kind = Tok::and_;
        return;
      case '|':
        if (peek() != '|') fail(start, "unexpected '|'; use '||' or 'or'");
        ++pos_;
        token.kind = Tok::or_;
        return;
      default:
        break;
    }
    if (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F)
      fail(start, std::string("unexpected character '") + c + "'");
    fail(start, "unexpected character");
  }

  void lex_number(Token& token) {
    std::size_t start = pos_;
    bool real = false;
    while (is_digit(peek()))
      ++pos_;
    if (peek() == '.') {
      if (!is_digit(peek(1))) fail(pos_, "expected a digit after the decimal point");
      real = true;
      ++pos_;
      while (is_digit(peek()))
        ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      std::size_t exponent = pos_;
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!is_digit(peek())) fail(exponent, "expected digits in the exponent");
      while (is_digit(peek()))
        ++pos_;
      real = true;
    }
    if (is_identifier_char(peek())) fail(start, "invalid number");
    const char* first = src_.data() + start;
    const char* last = src_.data() + pos_;
    if (real) {
      auto [ptr, ec] = std::from_chars(first, last, token.real);
      if (ec == std::errc::result_out_of_range) fail(start, "number out of range");
      if (ec != std::errc() || ptr != last) fail(start, "invalid number");
      token.kind = Tok::real;
      return;
    }
    auto [ptr, ec] = std::from_chars(first, last, token.integer);
    constexpr auto kLimit =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1;
    if (ec != std::errc() || ptr != last || token.integer > kLimit)
      fail(start, "integer literal out of range");
    token.kind = Tok::integer;
  }

  void lex_string(Token& token) {
    std::size_t open = pos_;
    char quote = src_[pos_++];
    std::string& out = token.string;
    for (;;) {
      if (pos_ >= src_.size()) fail(open, "unterminated string");
      char c = src_[pos_];
      if (c == quote) {
        ++pos_;
        break;
      }
      if (c != '\\') {
        out.push_back(c);
        ++pos_;
        continue;
      }
      std::size_t escape = pos_;
      ++pos_;
      if (pos_ >= src_.size()) fail(open, "unterminated string");
      char e = src_[pos_++];
      switch (e) {
        case '\\':
          out.push_back('\\');
          break;
        case '"':
          out.push_back('"');
          break;
        case '\'':
          out.push_back('\'');
          break;
        case '/':
          out.push_back('/');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case '0':
          out.push_back('\0');
          break;
        case 'u':
          append_utf8(out, unicode_escape(escape));
          break;
        default:
          fail(escape, std::string("unknown escape '\\") +
                           (static_cast<unsigned char>(e) >= 0x20 ? std::string(1, e) : "") + "'");
      }
    }
    token.kind = Tok::string;
  }

  std::uint32_t hex4(std::size_t escape) {
    std::optional<std::uint32_t> cp = parse_hex4(src_.substr(pos_));
    if (!cp) fail(escape, "expected four hex digits after '\\u'");
    pos_ += 4;
    return *cp;
  }

  // After "\u": four hex digits, or a surrogate pair written as two escapes.
  std::uint32_t unicode_escape(std::size_t escape) {
    std::uint32_t cp = hex4(escape);
    if (is_low_surrogate(cp)) fail(escape, "unpaired surrogate in '\\u' escape");
    if (is_high_surrogate(cp)) {
      if (peek() != '\\' || peek(1) != 'u') fail(escape, "unpaired surrogate in '\\u' escape");
      std::size_t second = pos_;
      pos_ += 2;
      std::uint32_t low = hex4(second);
      if (!is_low_surrogate(low)) fail(second, "unpaired surrogate in '\\u' escape");
      cp = combine_surrogates(cp, low);
    }
    return cp;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) {
  return Lexer(source).run();
}

}  // namespace cwf::expr
