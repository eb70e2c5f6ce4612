#include "runtime/values/value_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>

#include "runtime/values/utf8.hpp"

namespace cwf {

JsonError::JsonError(std::string message, std::size_t offset)
    : std::runtime_error("column " + std::to_string(offset + 1) + ": " + message),
      message_(std::move(message)),
      offset_(offset) {}

namespace {

// Past this many distinct key lists the parser forgets them all and starts over, so that data
// with ever-new keys cannot grow the cache without bound.
constexpr std::size_t kMaxCachedSchemas = 4096;

struct SchemaEntry {
  const Schema* schema = nullptr;
  // Empty unless the object repeats a key: then the slot of each parsed member, in order.
  std::vector<int> slot_of;
};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

struct JsonParser::Impl {
  const char* begin = nullptr;
  const char* p = nullptr;
  const char* end = nullptr;
  int depth = 0;
  std::vector<Value> stack;           // members of the arrays and objects being parsed
  std::vector<std::string> key_bufs;  // per depth: the keys of the open object, length-prefixed
  std::string unescaped;              // scratch for strings with escapes
  std::unordered_map<std::string, SchemaEntry> schemas;

  Impl() : key_bufs(kMaxDepth + 2) { stack.reserve(64); }

  [[noreturn]] void fail(const std::string& message) const {
    throw JsonError(message, static_cast<std::size_t>(p - begin));
  }
  [[noreturn]] void fail_at(const char* at, const std::string& message) const {
    throw JsonError(message, static_cast<std::size_t>(at - begin));
  }

  void skip_ws() {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
      ++p;
  }

  std::string describe_here() const {
    if (p >= end) return "end of input";
    unsigned char c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c >= 0x7F) return "byte " + std::to_string(c);
    return std::string("'") + *p + "'";
  }

  Value parse_document(std::string_view text) {
    begin = p = text.data();
    end = text.data() + text.size();
    depth = 0;
    stack.clear();
    skip_ws();
    Value v = parse_value();
    skip_ws();
    if (p != end) fail("unexpected " + describe_here() + " after the JSON value");
    return v;
  }

  Value parse_value() {
    skip_ws();
    if (p >= end) fail("unexpected end of input");
    switch (*p) {
      case '{':
        return parse_object();
      case '[':
        return parse_array();
      case '"':
        return Value(parse_string());
      case 't':
        return literal("true", Value(true));
      case 'f':
        return literal("false", Value(false));
      case 'n':
        return literal("null", Value());
      default:
        if (*p == '-' || is_digit(*p)) return parse_number();
        fail("unexpected " + describe_here());
    }
  }

  Value literal(std::string_view word, Value value) {
    if (static_cast<std::size_t>(end - p) < word.size() ||
        std::memcmp(p, word.data(), word.size()) != 0)
      fail("invalid literal (expected " + std::string(word) + ")");
    p += word.size();
    return value;
  }

  // Integers of up to 18 digits and decimals whose digits fit 2^53 with a power of ten up to
  // 10^22 are converted directly (exactly, as one correctly rounded multiplication or division);
  // anything else goes through std::from_chars.
  Value parse_number() {
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* start = p;
    const bool negative = *p == '-';
    if (negative) ++p;
    std::uint64_t mantissa = 0;
    int digits = 0;  // significant digits accumulated into mantissa (leading zeros excepted)
    bool exact = true;
    auto take_digit = [&](char c) {
      if (digits < 19) {
        mantissa = mantissa * 10 + static_cast<std::uint64_t>(c - '0');
        if (mantissa != 0) ++digits;
      } else {
        exact = false;
      }
    };
    if (p < end && *p == '0') {
      ++p;
    } else if (p < end && is_digit(*p)) {
      while (p < end && is_digit(*p))
        take_digit(*p++);
    } else {
      fail("invalid number");
    }
    bool integral = true;
    int exponent = 0;
    if (p < end && *p == '.') {
      integral = false;
      ++p;
      if (p >= end || !is_digit(*p)) fail("invalid number: digits expected after '.'");
      while (p < end && is_digit(*p)) {
        take_digit(*p++);
        --exponent;
      }
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
      integral = false;
      ++p;
      bool negative_exponent = false;
      if (p < end && (*p == '+' || *p == '-')) negative_exponent = *p++ == '-';
      if (p >= end || !is_digit(*p)) fail("invalid number: digits expected in the exponent");
      int e = 0;
      while (p < end && is_digit(*p)) {
        if (e < 100000) e = e * 10 + (*p - '0');
        ++p;
      }
      exponent += negative_exponent ? -e : e;
    }
    if (integral && exact && digits <= 18) {
      auto i = static_cast<std::int64_t>(mantissa);
      return Value(negative ? -i : i);
    }
    if (integral) {
      std::int64_t i = 0;
      auto [ptr, ec] = std::from_chars(start, p, i);
      if (ec == std::errc() && ptr == p) return Value(i);
      // Rounding it to a double would silently change it (two ids could become equal).
      fail_at(start,
              "integer out of the 64-bit range (write it with a fraction or an exponent to read it "
              "as a double, or as a string to keep its digits)");
    } else if (exact && mantissa < (std::uint64_t{1} << 53) && exponent >= -22 && exponent <= 22) {
      double d = static_cast<double>(mantissa);
      d = exponent < 0 ? d / kPow10[-exponent] : d * kPow10[exponent];
      return Value(negative ? -d : d);
    }
    double d = 0;
    auto [ptr, ec] = std::from_chars(start, p, d);
    if (ec == std::errc() && ptr == p) return Value(d);
    // Out of range of a double: strtod gives +-inf for an overflow, which would be written back
    // as null; an underflow rounds to the nearest double (0 or a subnormal), which is kept.
    std::string copy(start, p);
    d = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(d)) fail_at(start, "number out of the range of a double (about 1.8e308)");
    return Value(d);
  }

  // Parses a string at p (which is on the opening quote). The view is valid until the next call.
  std::string_view parse_string() {
    ++p;  // opening quote
    const char* start = p;
    while (p < end) {
      char c = *p;
      if (c == '"') {
        std::string_view s(start, static_cast<std::size_t>(p - start));
        ++p;
        return s;
      }
      if (c == '\\') break;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      ++p;
    }
    if (p >= end) fail_at(start - 1, "unterminated string");
    unescaped.assign(start, p);
    while (p < end) {
      char c = *p;
      if (c == '"') {
        ++p;
        return unescaped;
      }
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        unescaped.push_back(c);
        ++p;
        continue;
      }
      ++p;
      if (p >= end) break;
      char e = *p++;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          unescaped.push_back(e);
          break;
        case 'b':
          unescaped.push_back('\b');
          break;
        case 'f':
          unescaped.push_back('\f');
          break;
        case 'n':
          unescaped.push_back('\n');
          break;
        case 'r':
          unescaped.push_back('\r');
          break;
        case 't':
          unescaped.push_back('\t');
          break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (is_high_surrogate(cp)) {
            if (end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
              const char* save = p;
              p += 2;
              std::uint32_t low = hex4();
              if (is_low_surrogate(low)) {
                cp = combine_surrogates(cp, low);
              } else {
                p = save;
                cp = 0xFFFD;
              }
            } else {
              cp = 0xFFFD;
            }
          } else if (is_low_surrogate(cp)) {
            cp = 0xFFFD;  // a lone low surrogate
          }
          append_utf8(unescaped, cp);
          break;
        }
        default:
          fail_at(p - 2, "invalid escape '\\" + std::string(1, e) + "'");
      }
    }
    fail_at(start - 1, "unterminated string");
  }

  std::uint32_t hex4() {
    std::optional<std::uint32_t> cp =
        parse_hex4(std::string_view(p, static_cast<std::size_t>(end - p)));
    if (!cp) fail("invalid \\u escape");
    p += 4;
    return *cp;
  }

  void enter() {
    if (++depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth));
    ++p;  // '[' or '{'
  }

  Value parse_array() {
    enter();
    std::size_t base = stack.size();
    skip_ws();
    if (p < end && *p == ']') {
      ++p;
    } else {
      for (;;) {
        stack.push_back(parse_value());
        skip_ws();
        if (p < end && *p == ',') {
          ++p;
          continue;
        }
        if (p < end && *p == ']') {
          ++p;
          break;
        }
        fail("expected ',' or ']' but found " + describe_here());
      }
    }
    Value v = Value::array(std::span<const Value>(stack.data() + base, stack.size() - base));
    stack.resize(base);
    --depth;
    return v;
  }

  Value parse_object() {
    enter();
    const int level = depth;
    key_bufs[static_cast<std::size_t>(level)].clear();
    std::size_t base = stack.size();
    skip_ws();
    if (p < end && *p == '}') {
      ++p;
    } else {
      for (;;) {
        skip_ws();
        if (p >= end || *p != '"') fail("expected a key string but found " + describe_here());
        std::string_view key = parse_string();
        std::string& keys = key_bufs[static_cast<std::size_t>(level)];
        auto length = static_cast<std::uint32_t>(key.size());
        keys.append(reinterpret_cast<const char*>(&length), sizeof length);
        keys.append(key);
        skip_ws();
        if (p >= end || *p != ':') fail("expected ':' but found " + describe_here());
        ++p;
        stack.push_back(parse_value());
        skip_ws();
        if (p < end && *p == ',') {
          ++p;
          continue;
        }
        if (p < end && *p == '}') {
          ++p;
          break;
        }
        fail("expected ',' or '}' but found " + describe_here());
      }
    }
    const SchemaEntry& entry = schema_for(key_bufs[static_cast<std::size_t>(level)]);
    std::size_t n = stack.size() - base;
    Value v;
    if (entry.slot_of.empty()) {
      v = Value::record(entry.schema, std::span<const Value>(stack.data() + base, n));
    } else {
      std::vector<Value> slots(entry.schema->size());
      for (std::size_t i = 0; i < n; ++i)
        slots[static_cast<std::size_t>(entry.slot_of[i])] = std::move(stack[base + i]);
      v = Value::record(entry.schema, std::move(slots));
    }
    stack.resize(base);
    --depth;
    return v;
  }

  const SchemaEntry& schema_for(const std::string& keys) {
    auto it = schemas.find(keys);
    if (it != schemas.end()) return it->second;
    if (schemas.size() >= kMaxCachedSchemas) schemas.clear();
    std::vector<std::string> names;
    std::vector<int> slot_of;
    bool duplicates = false;
    for (std::size_t pos = 0; pos < keys.size();) {
      std::uint32_t length = 0;
      std::memcpy(&length, keys.data() + pos, sizeof length);
      pos += sizeof length;
      std::string name = keys.substr(pos, length);
      pos += length;
      int slot = -1;
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) slot = static_cast<int>(i);
      if (slot < 0) {
        slot = static_cast<int>(names.size());
        names.push_back(std::move(name));
      } else {
        duplicates = true;
      }
      slot_of.push_back(slot);
    }
    SchemaEntry entry;
    entry.schema = Schema::intern(names);
    if (duplicates) entry.slot_of = std::move(slot_of);
    return schemas.emplace(keys, std::move(entry)).first->second;
  }
};

JsonParser::JsonParser() : impl_(std::make_unique<Impl>()) {}
JsonParser::~JsonParser() = default;

Value JsonParser::parse(std::string_view text) {
  return impl_->parse_document(text);
}

Value parse_json(std::string_view text) {
  JsonParser parser;
  return parser.parse(text);
}

}  // namespace cwf
