// Reading YAML for the workflow loader: YAML nodes to cwf::Value, scalar resolution, positions
// of nodes as SourceLocations, and map iteration that rejects duplicate and non-scalar keys.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "runtime/graph/workflow.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/values/value.hpp"

namespace cwf {

// Plain scalars resolve as in YAML 1.2's core schema: null (~, null, empty), true/false (also
// True, TRUE, ...), integers (decimal, 0x hex, 0o octal), floats (1.5, 1e3, .inf, .nan), else a
// string. Quoted scalars are always strings. Sequences become arrays and maps records (keys in
// the order written). Throws LoadError (in `file_for_errors`) for a map with a non-scalar or
// repeated key.
Value yaml_to_value(const YAML::Node& node, const std::string& file_for_errors = {});

// The same resolution applied to the text of one scalar, whether quoted or not; nullopt when
// the text is not of that kind.
std::optional<bool> parse_yaml_bool(std::string_view text);
std::optional<std::int64_t> parse_yaml_int(std::string_view text);
std::optional<double> parse_yaml_real(std::string_view text);  // integers too

// yaml-cpp marks are 0-based; SourceLocations 1-based. A node without a position (one that was
// not in the text) gives `fallback`.
SourceLocation yaml_location(const YAML::Mark& mark, const std::string& file);
SourceLocation yaml_location(const YAML::Node& node, const std::string& file,
                             const SourceLocation& fallback = {});

// What a node holds, for "expected X, got Y" messages: 'text' for a scalar, "null", "a
// sequence", "a map".
std::string describe_yaml(const YAML::Node& node);

// A key and its value as written in a map. Assigning an entry rebinds its node handles
// (YAML::Node::reset): YAML::Node's own assignment writes into the document node the handle
// refers to, so moving entries around (erase, sort) would change the file's other values.
struct YamlEntry {
  YamlEntry(std::string key, YAML::Node key_node, YAML::Node value)
      : key(std::move(key)), key_node(std::move(key_node)), value(std::move(value)) {}
  YamlEntry(const YamlEntry&) = default;
  YamlEntry& operator=(const YamlEntry& other) {
    key = other.key;
    key_node.reset(other.key_node);
    value.reset(other.value);
    return *this;
  }

  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

// Where an entry's key, and its value, were written. An empty value (`key:`) carries the position
// of whatever follows it, so it is reported at its key.
inline SourceLocation key_location(const YamlEntry& entry, const std::string& file) {
  return yaml_location(entry.key_node, file);
}
inline SourceLocation value_location(const YamlEntry& entry, const std::string& file) {
  if (entry.value.IsNull()) return key_location(entry, file);
  return yaml_location(entry.value, file, key_location(entry, file));
}

// The entries of a map in the order written. Throws LoadError for a key that is not a scalar
// and for a key written twice ("duplicate <what> 'x' (first at 3:5)").
std::vector<YamlEntry> yaml_map_entries(const YAML::Node& map, const std::string& file,
                                        std::string_view what = "key");

}  // namespace cwf
