// JSON text -> Value: objects become records, arrays arrays, numbers written without a fraction or
// exponent ints (doubles otherwise), strings strings. A number that does not fit its kind is an
// error rather than a different value: an integer beyond 64 bits, a double beyond ~1.8e308.
//
// A JsonParser is meant to be reused for a stream of documents (one per line of a JSON-lines
// file): it keeps its scratch buffers and remembers the record Schema of every distinct key list
// it has seen, so parsing an object whose keys it knows costs one hash lookup instead of a
// Schema::intern. Short strings stay inline in the Value; a document allocates only for its
// arrays, records and strings longer than 14 bytes.
//
// A key that appears twice in one object keeps its last value (at the position of its first).
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/values/value.hpp"

namespace cwf {

class JsonError : public std::runtime_error {
 public:
  // `offset` is the 0-based byte offset of the problem in the parsed text.
  JsonError(std::string message, std::size_t offset);
  std::size_t offset() const noexcept { return offset_; }
  // The message without the position.
  const std::string& message() const noexcept { return message_; }

 private:
  std::string message_;
  std::size_t offset_;
};

class JsonParser {
 public:
  // Nesting deeper than this is rejected (protects the stack from hostile input).
  static constexpr int kMaxDepth = 256;

  JsonParser();
  ~JsonParser();
  JsonParser(const JsonParser&) = delete;
  JsonParser& operator=(const JsonParser&) = delete;

  // Parses exactly one JSON value surrounded by optional whitespace. Throws JsonError with
  // "column N: ..." (1-based) in what().
  Value parse(std::string_view text);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One-off convenience; prefer a long-lived JsonParser on hot paths.
Value parse_json(std::string_view text);

}  // namespace cwf
