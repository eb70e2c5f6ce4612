// A JSON-lines stream read one document at a time: lines numbered from 1, blank lines skipped, a
// trailing carriage return dropped, every line parsed by one reused JsonParser. For the files of
// records an actor or a command reads whole (catalogs, registrations, event histories); a source
// that follows a growing file has its own reader (actors/line_reader.hpp).
#pragma once

#include <cstddef>
#include <istream>
#include <string>

#include "runtime/values/value.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf {

class JsonLinesReader {
 public:
  explicit JsonLinesReader(std::istream& in) : in_(in) {}

  // The next non-blank line: true with `value` set, or with `value` null and `error` saying why
  // the line is not JSON ("column N: ..."); false at the end of the stream.
  bool next(Value& value, std::string& error);
  // The number and the text of the line `next` returned last.
  std::size_t line_number() const { return number_; }
  const std::string& line() const { return line_; }
  // "<name>:<line number>: ", the prefix of a message about that line.
  std::string where(const std::string& name) const {
    return name + ":" + std::to_string(number_) + ": ";
  }

 private:
  std::istream& in_;
  JsonParser parser_;
  std::string line_;
  std::size_t number_ = 0;
};

}  // namespace cwf
