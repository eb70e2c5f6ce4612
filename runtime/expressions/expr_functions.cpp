#include "runtime/expressions/expr_functions.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <system_error>
#include <vector>

#include "runtime/expressions/expr_error.hpp"

namespace cwf::expr {

namespace {

[[noreturn]] void bad_argument(std::string_view function, std::string_view wanted, const Value& got,
                               int column) {
  throw ExprError(std::string(function) + "() expects " + std::string(wanted) + ", got " +
                      std::string(kind_name(got.kind())),
                  column);
}

Value size_value(std::size_t n) {
  return Value(static_cast<std::int64_t>(n));
}

Value fn_len(Args args, int column) {
  const Value& x = args[0];
  if (x.is_string()) return size_value(x.as_string().size());
  if (x.is_array()) return size_value(x.as_array().size());
  if (x.is_record()) return size_value(x.schema()->size());
  if (x.is_null()) return Value();
  bad_argument("len", "a string, array or record", x, column);
}

std::span<const Value> number_array(std::string_view function, const Value& x, int column) {
  if (!x.is_array()) bad_argument(function, "an array of numbers", x, column);
  for (const Value& item : x.as_array())
    if (!item.is_number() && !item.is_null())
      throw ExprError(std::string(function) +
                          "() expects an array of numbers, got an element of kind " +
                          std::string(kind_name(item.kind())),
                      column);
  return x.as_array();
}

Value fn_sum(Args args, int column) {
  if (args[0].is_null()) return Value();
  std::int64_t total = 0;
  double real_total = 0;
  bool real = false;
  for (const Value& item : number_array("sum", args[0], column)) {
    if (item.is_null()) continue;
    if (!real && item.is_int()) {
      if (__builtin_add_overflow(total, item.as_int(), &total))
        throw ExprError("integer overflow in sum()", column);
      continue;
    }
    if (!real) {
      real = true;
      real_total = static_cast<double>(total);
    }
    real_total += item.as_double();
  }
  return real ? Value(real_total) : Value(total);
}

Value fn_avg(Args args, int column) {
  if (args[0].is_null()) return Value();
  double total = 0;
  std::size_t count = 0;
  for (const Value& item : number_array("avg", args[0], column)) {
    if (item.is_null()) continue;
    total += item.as_double();
    ++count;
  }
  return count == 0 ? Value() : Value(total / static_cast<double>(count));
}

// min/max over the elements of one array argument, or over the arguments when there are several,
// ordered like `<` orders them. Nulls are skipped; nothing left gives null; two values `<` cannot
// order (a string and a number) are an error.
Value extreme(Args args, bool want_max, int column) {
  const Value* best = nullptr;
  auto consider = [&](const Value& v) {
    if (v.is_null()) return;
    if (best == nullptr) {
      best = &v;
      return;
    }
    Order o = order(v, *best);
    if (o == Order::incompatible)
      throw ExprError(std::string(want_max ? "max" : "min") + "(): cannot compare " +
                          describe_operand(*best) + " with " + describe_operand(v),
                      column);
    if (o == (want_max ? Order::greater : Order::less)) best = &v;
  };
  if (args.size() == 1) {
    if (!args[0].is_array()) return args[0];
    for (const Value& item : args[0].as_array())
      consider(item);
  } else {
    for (std::size_t i = 0; i < args.size(); ++i)
      consider(args[i]);
  }
  return best ? *best : Value();
}

Value fn_min(Args args, int column) {
  return extreme(args, false, column);
}
Value fn_max(Args args, int column) {
  return extreme(args, true, column);
}

Value fn_as_set(Args args, int column) {
  const Value& x = args[0];
  if (x.is_null()) return Value();
  if (!x.is_array()) bad_argument("as_set", "an array", x, column);
  std::vector<Value> items(x.as_array().begin(), x.as_array().end());
  std::sort(items.begin(), items.end(), [](const Value& a, const Value& b) { return a < b; });
  items.erase(std::unique(items.begin(), items.end()), items.end());
  return Value::array(std::move(items));
}

Value fn_contains(Args args, int column) {
  const Value& haystack = args[0];
  const Value& needle = args[1];
  if (haystack.is_null()) return Value();
  if (haystack.is_array()) {
    for (const Value& item : haystack.as_array())
      if (item == needle) return Value(true);
    return Value(false);
  }
  if (haystack.is_string() || haystack.is_record()) {
    if (needle.is_null()) return Value();
    if (!needle.is_string())
      throw ExprError("contains() looks for a string in a " +
                          std::string(kind_name(haystack.kind())) + ", got " +
                          std::string(kind_name(needle.kind())),
                      column);
    if (haystack.is_record()) return Value(haystack.schema()->slot(needle.as_string()) >= 0);
    return Value(haystack.as_string().find(needle.as_string()) != std::string_view::npos);
  }
  bad_argument("contains", "an array, string or record", haystack, column);
}

Value fn_abs(Args args, int column) {
  const Value& x = args[0];
  if (x.is_int()) {
    std::int64_t i = x.as_int();
    if (i >= 0) return x;
    std::int64_t r = 0;
    if (__builtin_sub_overflow(std::int64_t{0}, i, &r))
      throw ExprError("integer overflow in abs()", column);
    return Value(r);
  }
  if (x.is_double()) return Value(std::fabs(x.as_double()));
  if (x.is_null()) return Value();
  bad_argument("abs", "a number", x, column);
}

template <double (*Round)(double)>
Value rounding(std::string_view name, Args args, int column) {
  const Value& x = args[0];
  if (x.is_int() || x.is_null()) return x;
  if (x.is_double()) return Value(Round(x.as_double()));
  bad_argument(name, "a number", x, column);
}

double floor_double(double d) {
  return std::floor(d);
}
double ceil_double(double d) {
  return std::ceil(d);
}
double round_double(double d) {
  return std::round(d);
}

Value fn_floor(Args args, int column) {
  return rounding<floor_double>("floor", args, column);
}
Value fn_ceil(Args args, int column) {
  return rounding<ceil_double>("ceil", args, column);
}
Value fn_round(Args args, int column) {
  return rounding<round_double>("round", args, column);
}

template <char (*Map)(char)>
Value map_chars(std::string_view name, Args args, int column) {
  const Value& x = args[0];
  if (x.is_null()) return Value();
  if (!x.is_string()) bad_argument(name, "a string", x, column);
  std::string s(x.as_string());
  for (char& c : s)
    c = Map(c);
  return Value(s);
}

char lower_char(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
char upper_char(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

Value fn_lower(Args args, int column) {
  return map_chars<lower_char>("lower", args, column);
}
Value fn_upper(Args args, int column) {
  return map_chars<upper_char>("upper", args, column);
}

// Both arguments strings: true; a null among them: false (and the caller returns null).
bool two_strings(std::string_view name, Args args, int column) {
  if (args[0].is_null() || args[1].is_null()) return false;
  if (!args[0].is_string()) bad_argument(name, "a string", args[0], column);
  if (!args[1].is_string()) bad_argument(name, "a string", args[1], column);
  return true;
}

Value fn_starts_with(Args args, int column) {
  if (!two_strings("starts_with", args, column)) return Value();
  return Value(args[0].as_string().starts_with(args[1].as_string()));
}

Value fn_ends_with(Args args, int column) {
  if (!two_strings("ends_with", args, column)) return Value();
  return Value(args[0].as_string().ends_with(args[1].as_string()));
}

Value fn_substr(Args args, int column) {
  const Value& s = args[0];
  if (s.is_null() || args[1].is_null()) return Value();
  if (!s.is_string()) bad_argument("substr", "a string", s, column);
  if (!args[1].is_int()) bad_argument("substr", "an int start", args[1], column);
  std::string_view text = s.as_string();
  auto size = static_cast<std::int64_t>(text.size());
  std::int64_t start = args[1].as_int();
  if (start < 0) start = std::max<std::int64_t>(0, size + start);
  start = std::min(start, size);
  std::int64_t length = size - start;
  if (args.size() == 3 && !args[2].is_null()) {
    if (!args[2].is_int()) bad_argument("substr", "an int length", args[2], column);
    if (args[2].as_int() < 0)
      throw ExprError(
          "substr() length must not be negative, got " + std::to_string(args[2].as_int()), column);
    length = std::min(length, args[2].as_int());
  }
  return Value(text.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(length)));
}

Value fn_concat(Args args, int) {
  std::string out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const Value& x = args[i];
    if (x.is_null()) continue;
    if (x.is_string())
      out += x.as_string();
    else if (x.is_double() && !std::isfinite(x.as_double()))
      out += non_finite_word(x.as_double());  // as str(x) writes it
    else
      x.append_json(out);
  }
  return Value(out);
}

Value fn_str(Args args, int) {
  return Value(args[0].to_text());
}

// FNV-1a over the text str() writes: the same number for the same text on every machine and in
// every run (std::hash promises neither), so that it can pick a bucket or a sample reproducibly.
Value fn_hash(Args args, int) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : args[0].to_text()) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return Value(static_cast<std::int64_t>(h >> 1));  // 63 bits: never negative
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

bool parse_double(std::string_view text, double& out) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

Value double_to_int(double d) {
  // 2^63 is exactly representable; anything at or beyond it does not fit an int64.
  if (!std::isfinite(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0) return Value();
  return Value(static_cast<std::int64_t>(d));
}

Value fn_int(Args args, int column) {
  const Value& x = args[0];
  if (x.is_int() || x.is_null()) return x;
  if (x.is_bool()) return Value(std::int64_t{x.as_bool() ? 1 : 0});
  if (x.is_double()) return double_to_int(x.as_double());
  if (x.is_string()) {
    std::string_view text = trim(x.as_string());
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    std::int64_t i = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
    if (!text.empty() && ec == std::errc() && ptr == text.data() + text.size()) return Value(i);
    double d = 0;
    if (parse_double(text, d)) return double_to_int(d);
    return Value();
  }
  bad_argument("int", "a number, string or bool", x, column);
}

Value fn_double(Args args, int column) {
  const Value& x = args[0];
  if (x.is_null()) return x;
  if (x.is_number()) return Value(x.as_double());
  if (x.is_bool()) return Value(x.as_bool() ? 1.0 : 0.0);
  if (x.is_string()) {
    double d = 0;
    return parse_double(x.as_string(), d) ? Value(d) : Value();
  }
  bad_argument("double", "a number, string or bool", x, column);
}

Value fn_exists(Args args, int) {
  return Value(!args[0].is_null());
}

Value fn_keys(Args args, int column) {
  const Value& x = args[0];
  if (x.is_null()) return Value();
  if (!x.is_record()) bad_argument("keys", "a record", x, column);
  std::vector<Value> names;
  names.reserve(x.schema()->size());
  for (const std::string& name : x.schema()->fields())
    names.emplace_back(name);
  return Value::array(std::move(names));
}

Value fn_type(Args args, int) {
  return Value(kind_name(args[0].kind()));
}

constexpr KindSet kOrNull(KindSet k) {
  return static_cast<KindSet>(k | kNullKind);
}

constexpr std::array kFunctions{
    FunctionInfo{"len", 1, 1, kOrNull(kIntKind), fn_len},
    FunctionInfo{"sum", 1, 1, kOrNull(kNumberKinds), fn_sum},
    FunctionInfo{"min", 1, -1, kAnyKind, fn_min},
    FunctionInfo{"max", 1, -1, kAnyKind, fn_max},
    FunctionInfo{"avg", 1, 1, kOrNull(kRealKind), fn_avg},
    FunctionInfo{"as_set", 1, 1, kOrNull(kArrayKind), fn_as_set},
    FunctionInfo{"contains", 2, 2, kOrNull(kBoolKind), fn_contains},
    FunctionInfo{"abs", 1, 1, kOrNull(kNumberKinds), fn_abs},
    FunctionInfo{"floor", 1, 1, kOrNull(kNumberKinds), fn_floor},
    FunctionInfo{"ceil", 1, 1, kOrNull(kNumberKinds), fn_ceil},
    FunctionInfo{"round", 1, 1, kOrNull(kNumberKinds), fn_round},
    FunctionInfo{"lower", 1, 1, kOrNull(kStringKind), fn_lower},
    FunctionInfo{"upper", 1, 1, kOrNull(kStringKind), fn_upper},
    FunctionInfo{"starts_with", 2, 2, kOrNull(kBoolKind), fn_starts_with},
    FunctionInfo{"ends_with", 2, 2, kOrNull(kBoolKind), fn_ends_with},
    FunctionInfo{"substr", 2, 3, kOrNull(kStringKind), fn_substr},
    FunctionInfo{"concat", 0, -1, kStringKind, fn_concat},
    FunctionInfo{"str", 1, 1, kStringKind, fn_str},
    FunctionInfo{"hash", 1, 1, kIntKind, fn_hash},
    FunctionInfo{"int", 1, 1, kOrNull(kIntKind), fn_int},
    FunctionInfo{"double", 1, 1, kOrNull(kRealKind), fn_double},
    FunctionInfo{"exists", 1, 1, kBoolKind, fn_exists},
    FunctionInfo{"keys", 1, 1, kOrNull(kArrayKind), fn_keys},
    FunctionInfo{"type", 1, 1, kStringKind, fn_type},
};

}  // namespace

const FunctionInfo* find_function(std::string_view name) {
  for (const FunctionInfo& f : kFunctions)
    if (f.name == name) return &f;
  return nullptr;
}

std::span<const FunctionInfo> builtin_functions() {
  return kFunctions;
}

}  // namespace cwf::expr
