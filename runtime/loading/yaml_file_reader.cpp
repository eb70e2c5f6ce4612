#include "runtime/loading/yaml_file_reader.hpp"

#include "runtime/values/did_you_mean.hpp"

namespace cwf {

void YamlFileReader::fail(const SourceLocation& where, const std::string& message) const {
  throw LoadError(where, message);
}

void YamlFileReader::unknown_key(const YamlEntry& item, const std::vector<std::string>& known,
                                 std::string_view what) const {
  std::string list;
  for (const auto& k : known)
    list += (list.empty() ? "" : ", ") + k;
  fail(key_location(item, file_), "unknown " + std::string(what) + " key '" + item.key +
                                      "' (expected one of: " + list + ")" +
                                      did_you_mean_suffix(item.key, known));
}

std::vector<YamlEntry> YamlFileReader::map_of(const YamlEntry& entry,
                                              std::string_view example) const {
  if (!entry.value.IsMap())
    fail(value_location(entry, file_), "expected a map for '" + entry.key + "' (e.g. " +
                                           std::string(example) + "), got " +
                                           describe_yaml(entry.value));
  return yaml_map_entries(entry.value, file_);
}

std::string YamlFileReader::scalar(const YamlEntry& entry, std::string_view expected) const {
  if (!entry.value.IsScalar() || entry.value.Scalar().empty())
    fail(value_location(entry, file_), "expected " + std::string(expected) + " for '" + entry.key +
                                           "', got " + describe_yaml(entry.value));
  return entry.value.Scalar();
}

}  // namespace cwf
