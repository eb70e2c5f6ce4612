#include "runtime/window_spec.hpp"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <charconv>
#include <stdexcept>

#include "runtime/duration.hpp"
#include "runtime/workflow_parser.hpp"
#include "runtime/yaml_value.hpp"

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

bool WindowSpec::uses_waves() const {
  return (step && step->unit == WindowUnit::waves) || (size && size->unit == WindowUnit::waves);
}

namespace {

const std::vector<std::string> kWindowKeys = {
    "size", "step", "group_by", "delete_used", "timeout", "suppress_empty", "expired_to"};

class WindowParser {
 public:
  explicit WindowParser(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(const SourceLocation& where, std::string message) const {
    throw LoadError(where, std::move(message));
  }
  SourceLocation key_location(const YamlEntry& entry) const {
    return cwf::key_location(entry, file_);
  }
  SourceLocation value_location(const YamlEntry& entry) const {
    return cwf::value_location(entry, file_);
  }

  WindowExtent extent(const YamlEntry& entry) const {
    if (!entry.value.IsScalar() || entry.value.Scalar().empty())
      fail(value_location(entry),
           "expected an amount such as '5 tokens', '1 wave' or '30 s' for '" + entry.key +
               "', got " + describe_yaml(entry.value));
    try {
      return parse_window_extent(entry.value.Scalar());
    } catch (const std::invalid_argument& e) {
      fail(value_location(entry),
           "invalid window " + entry.key + " '" + entry.value.Scalar() + "': " + e.what());
    }
  }

  bool boolean(const YamlEntry& entry) const {
    std::optional<bool> b;
    if (entry.value.IsScalar()) b = parse_yaml_bool(entry.value.Scalar());
    if (!b)
      fail(value_location(entry),
           "expected true or false for '" + entry.key + "', got " + describe_yaml(entry.value));
    return *b;
  }

  std::string group_key(const YAML::Node& node, const SourceLocation& fallback) const {
    SourceLocation where = yaml_location(node, file_, fallback);
    if (!node.IsScalar() || node.Scalar().empty())
      fail(where, "expected a group_by expression (e.g. /user), got " + describe_yaml(node));
    try {
      Expression::compile(node.Scalar());
    } catch (const ExprError& e) {
      fail(where, "invalid group_by expression '" + node.Scalar() + "': " + e.what());
    }
    return node.Scalar();
  }

  WindowSpec parse(const YamlEntry& entry, std::optional<YamlEntry>* expired_to) const {
    if (!entry.value.IsMap())
      fail(value_location(entry),
           "expected a map for 'window' (e.g. {size: 5 tokens, step: 1 token}), got " +
               describe_yaml(entry.value));
    WindowSpec spec;
    for (const YamlEntry& item : yaml_map_entries(entry.value, file_)) {
      if (item.key == "size") {
        spec.size = extent(item);
      } else if (item.key == "step") {
        spec.step = extent(item);
      } else if (item.key == "group_by") {
        if (item.value.IsSequence()) {
          if (item.value.size() == 0)
            fail(value_location(item), "expected at least one expression for 'group_by'");
          for (const YAML::Node& key : item.value)
            spec.group_by.push_back(group_key(key, value_location(item)));
        } else {
          spec.group_by.push_back(group_key(item.value, key_location(item)));
        }
      } else if (item.key == "delete_used") {
        spec.delete_used = boolean(item);
      } else if (item.key == "suppress_empty") {
        spec.suppress_empty = boolean(item);
      } else if (item.key == "timeout") {
        std::optional<double> factor;
        if (item.value.IsScalar()) factor = parse_yaml_real(item.value.Scalar());
        if (!factor || !(*factor >= 0) || *factor > 1e9)
          fail(value_location(item),
               "expected a non-negative factor of the window size for 'timeout', got " +
                   describe_yaml(item.value));
        spec.timeout = *factor;
      } else if (item.key == "expired_to") {
        if (expired_to) *expired_to = item;
      } else {
        fail(key_location(item),
             "unknown window key '" + item.key + "'" +
                 loader_detail::suggest(item.key, kWindowKeys, "expected one of"));
      }
    }
    return spec;
  }

 private:
  const std::string& file_;
};

}  // namespace

WindowSpec parse_window_spec(const YamlEntry& entry, const std::string& file,
                             std::optional<YamlEntry>* expired_to) {
  return WindowParser(file).parse(entry, expired_to);
}

}  // namespace cwf
