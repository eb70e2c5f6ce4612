#include "actors/actor_type_util.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "runtime/time/duration.hpp"

namespace cwf::actors {

Params with_defaults(const Params& given, const std::vector<ParamSpec>& specs) {
  Params params = given;
  for (const ParamSpec& spec : specs) {
    if (params.has(spec.name)) continue;
    if (!spec.default_value)
      throw ParamError(spec.name, "missing required parameter '" + spec.name + "'");
    params.set(spec.name, *spec.default_value);
  }
  return params;
}

ActorType make_type(std::string name, std::string doc, std::vector<ParamSpec> params,
                    ActorPorts ports, ActorFactory factory) {
  ActorType type;
  type.name = std::move(name);
  type.doc = std::move(doc);
  type.params = std::move(params);
  type.ports = std::move(ports);
  type.factory = [specs = type.params, factory = std::move(factory)](const Params& given) {
    return factory(with_defaults(given, specs));
  };
  return type;
}

Expression compile_param(const Params& params, std::string_view name, const ExprEnvironment& env) {
  const Value& source = params.get(name);
  if (!source.is_string())
    throw ParamError(std::string(name),
                     "expected an expression string, got " + std::string(kind_name(source.kind())));
  try {
    return Expression::compile(source.as_string(), env);
  } catch (const ExprError& e) {
    throw ParamError(std::string(name), e.what());
  }
}

Duration parse_time_unit(const Params& params, std::string_view name) {
  std::string unit = params.get_string(name);
  if (unit == "s") return kSecond;
  if (unit == "ms") return kMillisecond;
  if (unit == "us") return kMicrosecond;
  if (unit == "ns") return 1;
  throw ParamError(std::string(name),
                   "unknown time unit '" + unit + "' (expected s, ms, us or ns)");
}

Duration parse_signed_duration(const Params& params, std::string_view name) {
  std::string text = params.get_string(name);
  std::string_view magnitude = text;
  while (!magnitude.empty() && magnitude.front() == ' ')
    magnitude.remove_prefix(1);
  bool negative = !magnitude.empty() && magnitude.front() == '-';
  if (negative) magnitude.remove_prefix(1);
  std::string reason;
  std::optional<Duration> d = try_parse_duration(magnitude, &reason);
  if (!d) throw ParamError(std::string(name), reason);
  return negative ? -*d : *d;
}

double parse_pace(const Params& params, std::string_view name) {
  std::string pace = params.get_string(name);
  if (pace == "fast") return 0;
  if (pace == "real") return 1;
  if (pace.size() >= 2 && (pace.back() == 'x' || pace.back() == 'X')) {
    double k = 0;
    const char* first = pace.data();
    const char* last = pace.data() + pace.size() - 1;
    auto [ptr, ec] = std::from_chars(first, last, k);
    if (ec == std::errc() && ptr == last && std::isfinite(k) && k > 0) return k;
  }
  throw ParamError(std::string(name),
                   "invalid pace '" + pace + "' (expected fast, real or a speed-up such as 10x)");
}

char parse_separator(const Params& params, std::string_view name) {
  std::string s = params.get_string(name);
  if (s == "\\t" || s == "tab") return '\t';
  if (s.size() == 1 && s[0] != '"' && s[0] != '\n' && s[0] != '\r') return s[0];
  throw ParamError(std::string(name),
                   "invalid separator '" + s + "' (expected one character other than a quote)");
}

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

// The proleptic Gregorian date of a day number since 1970-01-01 (H. Hinnant's civil_from_days).
void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
}

bool digits(std::string_view s, std::size_t& pos, std::size_t count, unsigned& out) {
  if (pos + count > s.size()) return false;
  out = 0;
  for (std::size_t i = 0; i < count; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<unsigned>(c - '0');
  }
  pos += count;
  return true;
}

bool parse_iso8601(std::string_view s, Timestamp& out) {
  std::size_t pos = 0;
  unsigned year, month, day, hour = 0, minute = 0, second = 0;
  if (!digits(s, pos, 4, year) || pos >= s.size() || s[pos++] != '-') return false;
  if (!digits(s, pos, 2, month) || pos >= s.size() || s[pos++] != '-') return false;
  if (!digits(s, pos, 2, day)) return false;
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  std::int64_t fraction = 0;
  std::int64_t offset = 0;
  if (pos < s.size() && (s[pos] == 'T' || s[pos] == 't' || s[pos] == ' ')) {
    ++pos;
    if (!digits(s, pos, 2, hour) || pos >= s.size() || s[pos++] != ':') return false;
    if (!digits(s, pos, 2, minute)) return false;
    if (pos < s.size() && s[pos] == ':') {
      ++pos;
      if (!digits(s, pos, 2, second)) return false;
      if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        ++pos;
        std::int64_t scale = kSecond;
        std::size_t start = pos;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
          if (scale > 1) {
            scale /= 10;
            fraction += (s[pos] - '0') * scale;
          }
          ++pos;
        }
        if (pos == start) return false;
      }
    }
    if (hour > 23 || minute > 59 || second > 60) return false;
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
      ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
      int sign = s[pos++] == '-' ? -1 : 1;
      unsigned oh, om = 0;
      if (!digits(s, pos, 2, oh)) return false;
      if (pos < s.size() && s[pos] == ':') ++pos;
      if (pos < s.size() && !digits(s, pos, 2, om)) return false;
      offset = sign * (static_cast<std::int64_t>(oh) * 3600 + om * 60);
    }
  }
  if (pos != s.size()) return false;
  std::int64_t seconds =
      days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  out = seconds * kSecond + fraction;
  return true;
}

bool scale(double units, Duration unit, Timestamp& out) {
  double ns = units * static_cast<double>(unit);
  if (!std::isfinite(ns) || std::abs(ns) >= 9.2e18) return false;
  out = static_cast<Timestamp>(std::llround(ns));
  return true;
}

}  // namespace

bool to_timestamp(const Value& value, Duration unit, Timestamp& out, std::string& error) {
  if (value.is_int()) {
    if (__builtin_mul_overflow(value.as_int(), unit, &out)) {
      error = "out of range";
      return false;
    }
    return true;
  }
  if (value.is_double()) {
    if (scale(value.as_double(), unit, out)) return true;
    error = "out of range";
    return false;
  }
  if (value.is_string()) {
    std::string_view s = value.as_string();
    std::int64_t i = 0;
    auto [iptr, iec] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (iec == std::errc() && iptr == s.data() + s.size() && !s.empty())
      return to_timestamp(Value(i), unit, out, error);
    double d = 0;
    auto [dptr, dec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (dec == std::errc() && dptr == s.data() + s.size() && !s.empty())
      return to_timestamp(Value(d), unit, out, error);
    if (parse_iso8601(s, out)) return true;
    error = "'" + std::string(s) + "' is neither a number nor an ISO-8601 date-time";
    return false;
  }
  error = "expected a number or a date-time string, got " +
          (value.is_null() ? std::string("null") : std::string(kind_name(value.kind())));
  return false;
}

std::string format_iso8601(Timestamp time) {
  const std::int64_t day_ns = 86400 * kSecond;
  std::int64_t days = time / day_ns, in_day = time % day_ns;
  if (in_day < 0) {
    in_day += day_ns;
    --days;
  }
  std::int64_t year;
  unsigned month, day;
  civil_from_days(days, year, month, day);
  const std::int64_t seconds = in_day / kSecond, fraction = in_day % kSecond;
  char buf[64];
  int n = std::snprintf(
      buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", static_cast<long long>(year), month,
      day, static_cast<long long>(seconds / 3600), static_cast<long long>(seconds / 60 % 60),
      static_cast<long long>(seconds % 60));
  std::string out(buf, static_cast<std::size_t>(n));
  if (fraction != 0) {
    std::snprintf(buf, sizeof buf, ".%09lld", static_cast<long long>(fraction));
    std::string digits(buf);
    digits.erase(digits.find_last_not_of('0') + 1);  // .250, not .250000000
    out += digits;
  }
  out.push_back('Z');
  return out;
}

}  // namespace cwf::actors
