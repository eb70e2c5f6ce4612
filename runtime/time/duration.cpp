#include "runtime/time/duration.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace cwf {

namespace {

// GCC/Clang's 128-bit integers (exact arithmetic on nanoseconds times a unit).
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

struct Unit {
  std::string_view name;
  Duration nanoseconds;
};

constexpr Duration kMinute = 60 * kSecond;
constexpr Duration kHour = 60 * kMinute;

constexpr std::array kUnits{
    Unit{"ns", 1},
    Unit{"nanosecond", 1},
    Unit{"nanoseconds", 1},
    Unit{"us", kMicrosecond},
    Unit{"\u00b5s", kMicrosecond},
    Unit{"microsecond", kMicrosecond},
    Unit{"microseconds", kMicrosecond},
    Unit{"ms", kMillisecond},
    Unit{"millisecond", kMillisecond},
    Unit{"milliseconds", kMillisecond},
    Unit{"s", kSecond},
    Unit{"sec", kSecond},
    Unit{"secs", kSecond},
    Unit{"second", kSecond},
    Unit{"seconds", kSecond},
    Unit{"min", kMinute},
    Unit{"mins", kMinute},
    Unit{"minute", kMinute},
    Unit{"minutes", kMinute},
    Unit{"h", kHour},
    Unit{"hour", kHour},
    Unit{"hours", kHour},
};

bool is_space(char c) {
  return c == ' ' || c == '\t';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && is_space(s.back()))
    s.remove_suffix(1);
  return s;
}

std::optional<Duration> fail(std::string* reason, std::string message) {
  if (reason) *reason = std::move(message);
  return std::nullopt;
}

}  // namespace

std::optional<Duration> try_parse_duration(std::string_view text, std::string* reason) {
  std::string_view s = trim(text);
  if (s.empty()) return fail(reason, "empty duration (expected e.g. 500 ms, 30 s, 1 min)");
  if (s.front() == '-') return fail(reason, "a duration cannot be negative");
  if (s.front() == '+') s.remove_prefix(1);

  // The number: digits, optionally a fraction. Kept as decimal digits so that "0.1 s" is exactly
  // 100 ms rather than whatever the nearest double times 1e9 rounds to.
  std::size_t i = 0;
  std::string_view whole, fraction;
  while (i < s.size() && is_digit(s[i]))
    ++i;
  whole = s.substr(0, i);
  if (i < s.size() && s[i] == '.') {
    std::size_t start = ++i;
    while (i < s.size() && is_digit(s[i]))
      ++i;
    fraction = s.substr(start, i - start);
  }
  if (whole.empty() && fraction.empty())
    return fail(reason, "expected a number followed by a unit (e.g. 500 ms, 30 s, 1 min)");
  std::string_view unit_text = trim(s.substr(i));

  Duration unit = kSecond;
  if (!unit_text.empty()) {
    bool found = false;
    for (const Unit& u : kUnits) {
      if (u.name == unit_text) {
        unit = u.nanoseconds;
        found = true;
        break;
      }
    }
    if (!found)
      return fail(reason,
                  "unknown unit '" + std::string(unit_text) + "' (use ns, us, ms, s, min or h)");
  }

  constexpr Duration kMax = std::numeric_limits<Duration>::max();
  auto too_large = [&] { return fail(reason, "duration is too large"); };
  Int128 total = 0;
  for (char c : whole) {
    total = total * 10 + (c - '0');
    if (total * unit > kMax) return too_large();
  }
  total *= unit;
  // Fraction digits beyond 18 cannot change the result by a nanosecond for any unit <= 1 h.
  std::string_view digits = fraction.substr(0, std::min<std::size_t>(fraction.size(), 18));
  Int128 numerator = 0, denominator = 1;
  for (char c : digits) {
    numerator = numerator * 10 + (c - '0');
    denominator *= 10;
  }
  total += (numerator * unit + denominator / 2) / denominator;
  if (total > kMax) return too_large();
  return static_cast<Duration>(total);
}

Duration parse_duration(std::string_view text) {
  std::string reason;
  if (auto d = try_parse_duration(text, &reason)) return *d;
  throw std::invalid_argument("invalid duration '" + std::string(text) + "': " + reason);
}

std::string format_duration(Duration duration) {
  if (duration == 0) return "0 s";
  bool negative = duration < 0;
  // In unsigned 128 bits so that the most negative duration has a magnitude too.
  UInt128 magnitude = negative ? static_cast<UInt128>(-static_cast<Int128>(duration))
                               : static_cast<UInt128>(duration);

  auto exact = [&](Duration unit) { return magnitude * 1000 % static_cast<UInt128>(unit) == 0; };
  Duration unit = 1;
  std::string_view name = "ns";
  if (magnitude >= static_cast<UInt128>(kHour) && exact(kHour)) {
    unit = kHour;
    name = "h";
  } else if (magnitude >= static_cast<UInt128>(kMinute) && exact(kMinute)) {
    unit = kMinute;
    name = "min";
  } else if (magnitude >= static_cast<UInt128>(kSecond)) {
    unit = kSecond;
    name = "s";
  } else if (magnitude >= static_cast<UInt128>(kMillisecond)) {
    unit = kMillisecond;
    name = "ms";
  } else if (magnitude >= static_cast<UInt128>(kMicrosecond)) {
    unit = kMicrosecond;
    name = "us";
  }

  // Thousandths of the unit, rounded half up.
  auto u = static_cast<UInt128>(unit);
  UInt128 thousandths = (magnitude * 1000 + u / 2) / u;
  auto whole = static_cast<std::uint64_t>(thousandths / 1000);
  auto fraction = static_cast<unsigned>(thousandths % 1000);

  std::string out = negative ? "-" : "";
  out += std::to_string(whole);
  if (fraction != 0) {
    std::string digits = std::to_string(fraction);
    digits.insert(0, 3 - digits.size(), '0');
    while (digits.back() == '0')
      digits.pop_back();
    out += "." + digits;
  }
  out += " ";
  out += name;
  return out;
}

}  // namespace cwf
