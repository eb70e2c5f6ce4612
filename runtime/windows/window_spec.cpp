#include "runtime/windows/window_spec.hpp"

#include <cctype>
#include <charconv>
#include <stdexcept>

#include "runtime/time/duration.hpp"

namespace cwf {

namespace {

constexpr std::string_view kUnits = "tokens, waves or a time unit: ns, us, ms, s, min or h";

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

std::string count_text(std::int64_t n, std::string_view singular) {
  return std::to_string(n) + " " + std::string(singular) + (n == 1 ? "" : "s");
}

}  // namespace

std::string WindowExtent::to_string() const {
  switch (unit) {
    case WindowUnit::tokens:
      return count_text(amount, "token");
    case WindowUnit::waves:
      return count_text(amount, "wave");
    case WindowUnit::time:
      break;
  }
  return format_duration(amount);
}

WindowExtent parse_window_extent(std::string_view text) {
  std::string_view t = trim_spaces(text);
  std::size_t unit_at = t.size();
  while (unit_at > 0 && std::isalpha(static_cast<unsigned char>(t[unit_at - 1])))
    --unit_at;
  std::string_view number = trim_spaces(t.substr(0, unit_at));
  std::string_view unit = t.substr(unit_at);
  if (t.empty()) throw std::invalid_argument("empty (expected e.g. '5 tokens' or '30 s')");
  if (unit.empty())
    throw std::invalid_argument("missing unit in '" + std::string(t) + "' (use " +
                                std::string(kUnits) + ")");
  bool tokens = unit == "token" || unit == "tokens";
  bool waves = unit == "wave" || unit == "waves";
  if (tokens || waves) {
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() || n < 1)
      throw std::invalid_argument("expected a whole number of at least 1 " +
                                  std::string(tokens ? "token" : "wave") + ", got '" +
                                  std::string(t) + "'");
    return WindowExtent{tokens ? WindowUnit::tokens : WindowUnit::waves, n};
  }
  std::string reason;
  std::optional<Duration> d = try_parse_duration(t, &reason);
  if (!d) {
    if (reason.starts_with("unknown unit"))
      throw std::invalid_argument("unknown unit '" + std::string(unit) + "' (use " +
                                  std::string(kUnits) + ")");
    throw std::invalid_argument(reason);
  }
  if (*d <= 0) throw std::invalid_argument("must be longer than 0, got '" + std::string(t) + "'");
  return WindowExtent{WindowUnit::time, *d};
}

std::string WindowSpec::describe() const {
  std::string out = "window(";
  auto add = [&out](std::string_view part) {
    if (out.back() != '(') out += ", ";
    out += part;
  };
  if (size) add("size: " + size->to_string());
  if (step) add("step: " + step->to_string());
  if (!group_by.empty()) {
    std::string keys = "group_by: [";
    for (std::size_t i = 0; i < group_by.size(); ++i)
      keys += (i ? ", " : "") + group_by[i];
    add(keys + "]");
  }
  if (delete_used) add("delete_used");
  if (timeout != 1.0) {
    std::string factor = std::to_string(timeout);
    while (factor.back() == '0')
      factor.pop_back();
    if (factor.back() == '.') factor.pop_back();
    add("timeout: " + factor);
  }
  if (suppress_empty) add("suppress_empty");
  if (idle) add("idle: " + format_duration(*idle));
  return out + ")";
}

std::vector<Expression> WindowSpec::compile_group_by() const {
  std::vector<Expression> keys;
  keys.reserve(group_by.size());
  for (const std::string& source : group_by)
    keys.push_back(Expression::compile(source));
  return keys;
}

bool WindowSpec::closes_by_time() const {
  if (step && step->unit == WindowUnit::time) return true;
  return step && size && size->unit == WindowUnit::time;
}

Duration WindowSpec::timeout_after_end() const {
  if (!closes_by_time()) return static_cast<Duration>(1e18);
  double base =
      static_cast<double>(size && size->unit == WindowUnit::time ? size->amount : step->amount);
  double t = timeout * base;
  constexpr double kFar = 1e18;  // about 31 years: never, without overflowing time arithmetic
  return t >= kFar ? static_cast<Duration>(kFar) : static_cast<Duration>(t);
}

namespace {

// "is counted in tokens", "is a duration".
std::string unit_phrase(WindowUnit unit) {
  switch (unit) {
    case WindowUnit::tokens:
      return "is counted in tokens";
    case WindowUnit::time:
      return "is a duration";
    case WindowUnit::waves:
      return "is counted in waves";
  }
  return "";
}

std::optional<std::string> extent_refusal(std::string_view what,
                                          const std::optional<WindowExtent>& from,
                                          const std::optional<WindowExtent>& to) {
  auto shown = [](const std::optional<WindowExtent>& e) {
    return e ? e->to_string() : std::string("none");
  };
  if (!from && to)
    return "the window has no " + std::string(what) + ": it cannot get one (" + shown(to) + ")";
  if (from && !to) return "the window's " + std::string(what) + " cannot be taken away";
  if (from && to && from->unit != to->unit)
    return "the " + std::string(what) + " " + unit_phrase(from->unit) + ": it cannot become " +
           to->to_string();
  return std::nullopt;
}

}  // namespace

std::optional<std::string> reshape_refusal(const WindowSpec& from, const WindowSpec& to) {
  if (auto why = extent_refusal("size", from.size, to.size)) return why;
  if (auto why = extent_refusal("step", from.step, to.step)) return why;
  if (from.group_by != to.group_by) return std::string("group_by cannot change");
  if (from.delete_used != to.delete_used) return std::string("delete_used cannot change");
  if (from.suppress_empty != to.suppress_empty) return std::string("suppress_empty cannot change");
  if (from.idle != to.idle) return std::string("idle cannot change");
  return std::nullopt;
}

}  // namespace cwf
