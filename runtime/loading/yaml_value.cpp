#include "runtime/loading/yaml_value.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace cwf {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::size_t digits(std::string_view s, std::size_t i) {
  while (i < s.size() && is_digit(s[i]))
    ++i;
  return i;
}

template <typename T>
std::optional<T> from_chars_all(std::string_view s, int base = 10) {
  T value{};
  const char* end = s.data() + s.size();
  std::from_chars_result r{};
  if constexpr (std::is_integral_v<T>)
    r = std::from_chars(s.data(), end, value, base);
  else
    r = std::from_chars(s.data(), end, value);
  if (r.ec != std::errc() || r.ptr != end) return std::nullopt;
  return value;
}

bool is_quoted(const YAML::Node& node) {
  return node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str";
}

}  // namespace

std::optional<bool> parse_yaml_bool(std::string_view text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

std::optional<std::int64_t> parse_yaml_int(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'o')) {
    auto magnitude = from_chars_all<std::uint64_t>(text.substr(2), text[1] == 'x' ? 16 : 8);
    if (!magnitude || *magnitude > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
      return std::nullopt;
    return static_cast<std::int64_t>(*magnitude);
  }
  std::string_view body = text;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) body.remove_prefix(1);
  if (body.empty() || digits(body, 0) != body.size()) return std::nullopt;
  if (text[0] == '+') text.remove_prefix(1);
  return from_chars_all<std::int64_t>(text);
}

std::optional<double> parse_yaml_real(std::string_view text) {
  if (auto i = parse_yaml_int(text)) return static_cast<double>(*i);
  std::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF")
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  if (text == ".nan" || text == ".NaN" || text == ".NAN")
    return std::numeric_limits<double>::quiet_NaN();
  // [0-9]+(\.[0-9]*)? or \.[0-9]+, then an optional exponent.
  std::size_t i = digits(body, 0);
  bool has_digits = i > 0;
  if (i < body.size() && body[i] == '.') {
    std::size_t after = digits(body, i + 1);
    has_digits = has_digits || after > i + 1;
    i = after;
  }
  if (!has_digits) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < body.size() && (body[j] == '+' || body[j] == '-')) ++j;
    std::size_t end = digits(body, j);
    if (end == j) return std::nullopt;
    i = end;
  }
  if (i != body.size()) return std::nullopt;
  auto value = from_chars_all<double>(body);
  if (!value) return std::nullopt;  // out of range
  return negative ? -*value : *value;
}

Value yaml_to_value(const YAML::Node& node, const std::string& file_for_errors) {
  if (!node.IsDefined() || node.IsNull()) return Value();
  if (node.IsScalar()) {
    const std::string& text = node.Scalar();
    if (is_quoted(node)) return Value(text);
    if (auto b = parse_yaml_bool(text)) return Value(*b);
    if (auto i = parse_yaml_int(text)) return Value(*i);
    if (auto d = parse_yaml_real(text)) return Value(*d);
    return Value(text);
  }
  if (node.IsSequence()) {
    std::vector<Value> items;
    items.reserve(node.size());
    for (const YAML::Node& item : node)
      items.push_back(yaml_to_value(item, file_for_errors));
    return Value::array(std::move(items));
  }
  std::vector<std::string> fields;
  std::vector<Value> slots;
  for (YamlEntry& entry : yaml_map_entries(node, file_for_errors, "field")) {
    fields.push_back(std::move(entry.key));
    slots.push_back(yaml_to_value(entry.value, file_for_errors));
  }
  return Value::record(Schema::intern(fields), std::move(slots));
}

SourceLocation yaml_location(const YAML::Mark& mark, const std::string& file) {
  if (mark.line < 0 || mark.column < 0) return SourceLocation{file, 0, 0};
  return SourceLocation{file, mark.line + 1, mark.column + 1};
}

SourceLocation yaml_location(const YAML::Node& node, const std::string& file,
                             const SourceLocation& fallback) {
  if (!node.IsDefined()) return fallback;
  YAML::Mark mark = node.Mark();
  if (mark.line < 0 || mark.column < 0) return fallback;
  return yaml_location(mark, file);
}

std::string describe_yaml(const YAML::Node& node) {
  if (!node.IsDefined()) return "nothing";
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "null";
    case YAML::NodeType::Sequence:
      return "a sequence";
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Scalar: {
      constexpr std::size_t kMax = 60;
      const std::string& text = node.Scalar();
      if (text.size() <= kMax) return "'" + text + "'";
      return "'" + text.substr(0, kMax) + "...'";
    }
    case YAML::NodeType::Undefined:
      break;
  }
  return "nothing";
}

std::vector<YamlEntry> yaml_map_entries(const YAML::Node& map, const std::string& file,
                                        std::string_view what) {
  std::vector<YamlEntry> entries;
  for (const auto& pair : map) {
    // Copies: yaml-cpp's iterator yields a temporary pair of handles.
    YAML::Node key = pair.first;
    if (!key.IsScalar())
      throw LoadError(yaml_location(key, file),
                      "expected a name as " + std::string(what) + ", got " + describe_yaml(key));
    for (const YamlEntry& earlier : entries) {
      if (earlier.key == key.Scalar()) {
        SourceLocation first = yaml_location(earlier.key_node, file);
        throw LoadError(yaml_location(key, file),
                        "duplicate " + std::string(what) + " '" + key.Scalar() + "' (first at " +
                            std::to_string(first.line) + ":" + std::to_string(first.column) + ")");
      }
    }
    entries.push_back({key.Scalar(), key, pair.second});
  }
  return entries;
}

}  // namespace cwf
