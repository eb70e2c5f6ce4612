// Reads a file of comma-separated integer lines (plain or .xz, see actors::LineReader) and hands
// each well-formed line's fields to a callback. Lines with the wrong number of fields or a
// non-integer are recorded as malformed and skipped; empty lines are ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "actors/line_reader.hpp"
#include "linear_road/integer_fields.hpp"
#include "linear_road/malformed_lines.hpp"

namespace cwf::lr {

// A file that cannot be opened or read: the whole comparison is impossible.
class DataFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `dir/name` or, failing that, `dir/name.xz`; nullopt when neither exists.
std::optional<std::string> find_data_file(const std::string& dir, const std::string& name);

// The most fields any Linear Road line has (an input tuple).
constexpr int kMaxIntegerFields = 16;

// Calls `on_line(fields, count, line_number, text)` per line whose field count is in
// [min_fields, max_fields]; `on_line` returns an empty string when it accepts the line, else the
// reason it is malformed. Throws DataFileError when the file cannot be opened or read.
template <class OnLine>
void read_integer_file(const std::string& path, int min_fields, int max_fields,
                       MalformedLines& malformed, OnLine&& on_line) {
  actors::LineReader reader;
  if (!reader.open(path)) throw DataFileError("cannot open " + path);
  std::int64_t fields[kMaxIntegerFields];
  std::string_view text;
  while (reader.next(text)) {
    if (text.empty()) continue;
    int count = split_integers(text, fields, kMaxIntegerFields);
    if (count < min_fields || count > max_fields) {
      std::string reason =
          count < 0
              ? "not a list of integers"
              : "has " + std::to_string(count) + " fields, expected " + std::to_string(min_fields) +
                    (max_fields != min_fields ? "-" + std::to_string(max_fields) : std::string());
      malformed.add(path, reader.line_number(), text, std::move(reason));
      continue;
    }
    std::string reason = on_line(fields, count, reader.line_number(), text);
    if (!reason.empty()) malformed.add(path, reader.line_number(), text, std::move(reason));
  }
  if (!reader.error().empty()) throw DataFileError(path + ": " + reader.error());
}

}  // namespace cwf::lr
