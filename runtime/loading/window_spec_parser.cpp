#include "runtime/loading/window_spec_parser.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <stdexcept>

#include "runtime/loading/workflow_parser.hpp"
#include "runtime/loading/yaml_value.hpp"
#include "runtime/time/duration.hpp"

namespace cwf {

namespace {

const std::vector<std::string> kWindowKeys = {
    "size", "step", "group_by", "delete_used", "timeout", "suppress_empty", "idle", "expired_to"};

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
    std::optional<YamlEntry> idle_at;
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
      } else if (item.key == "idle") {
        std::string why;
        std::optional<Duration> idle;
        if (item.value.IsScalar()) idle = try_parse_duration(item.value.Scalar(), &why);
        if (!idle || *idle <= 0)
          fail(value_location(item), "expected a positive duration for 'idle' (e.g. 2 min), got " +
                                         describe_yaml(item.value) +
                                         (why.empty() ? "" : ": " + why));
        spec.idle = *idle;
        idle_at = item;
      } else if (item.key == "expired_to") {
        if (expired_to) *expired_to = item;
      } else {
        fail(key_location(item),
             "unknown window key '" + item.key + "'" +
                 loader_detail::suggest(item.key, kWindowKeys, "expected one of"));
      }
    }
    if (idle_at && spec.group_by.empty())
      fail(key_location(*idle_at),
           "'idle' ends the groups of group_by that stay quiet; this window has no group_by");
    if (idle_at && spec.uses_waves())
      fail(key_location(*idle_at), "'idle' is for windows in tokens and time, not in waves");
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

void set_window_field(WindowSpec& spec, const std::string& field, const std::string& value,
                      const std::string& origin) {
  static const std::vector<std::string> kSettable = {"size", "step", "timeout", "delete_used",
                                                     "suppress_empty"};
  if (std::find(kSettable.begin(), kSettable.end(), field) == kSettable.end()) {
    bool known = std::find(kWindowKeys.begin(), kWindowKeys.end(), field) != kWindowKeys.end();
    throw LoadError(SourceLocation{origin, 0, 0},
                    known ? "the window's " + field + " can only be written in the file"
                          : "unknown window key '" + field + "'" +
                                loader_detail::suggest(field, kSettable, "expected one of"));
  }
  // Read as the one key of a window map, so that the value means what it would in the file.
  YAML::Node one(YAML::NodeType::Map);
  one[field] = value;
  WindowSpec read;
  try {
    read = WindowParser(origin).parse(YamlEntry{"window", YAML::Node("window"), one}, nullptr);
  } catch (const LoadError& e) {
    // Nodes made here have no place in a file: the error is the setting's.
    throw LoadError(SourceLocation{origin, 0, 0}, e.message());
  }
  if (field == "size") spec.size = read.size;
  if (field == "step") spec.step = read.step;
  if (field == "timeout") spec.timeout = read.timeout;
  if (field == "delete_used") spec.delete_used = read.delete_used;
  if (field == "suppress_empty") spec.suppress_empty = read.suppress_empty;
}

}  // namespace cwf
