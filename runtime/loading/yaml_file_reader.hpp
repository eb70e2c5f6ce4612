// The checks every hand-written YAML file format of the product (experiments, GSM models, ...)
// makes on its keys and values, each mistake reported at its line with what was expected.
// Parsers of those formats derive from it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/loading/load_error.hpp"
#include "runtime/loading/yaml_value.hpp"

namespace cwf {

class YamlFileReader {
 public:
  explicit YamlFileReader(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const SourceLocation& where, const std::string& message) const;
  // `what` names the map, e.g. "stage": "unknown stage key 'x' (expected one of: ...)".
  [[noreturn]] void unknown_key(const YamlEntry& item, const std::vector<std::string>& known,
                                std::string_view what) const;
  // The entries of a map value; `example` shows what one looks like.
  std::vector<YamlEntry> map_of(const YamlEntry& entry, std::string_view example) const;
  // A non-empty scalar, as text.
  std::string scalar(const YamlEntry& entry, std::string_view expected) const;

 protected:
  std::string file_;
};

}  // namespace cwf
