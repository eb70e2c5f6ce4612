#include "runtime/values/json_lines.hpp"

namespace cwf {

bool JsonLinesReader::next(Value& value, std::string& error) {
  while (std::getline(in_, line_)) {
    ++number_;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    if (line_.find_first_not_of(" \t") == std::string::npos) continue;
    error.clear();
    try {
      value = parser_.parse(line_);
    } catch (const JsonError& e) {
      value = Value();
      error = e.what();
    }
    return true;
  }
  return false;
}

}  // namespace cwf
