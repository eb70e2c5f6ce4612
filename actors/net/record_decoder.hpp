// The framing every push source shares: bytes as they arrive (a TCP stream, a WebSocket message,
// an HTTP body) cut into lines, each line read as a record — a JSON object, or a CSV line under
// the header line the stream began with. A line longer than `max_message` bytes, a line that is
// not a JSON object, a CSV line with another number of fields than its header: each is one
// malformed item with the reason and the line's beginning, and the stream goes on after it.
//
// One decoder per stream (a connection, a client): it keeps the partial last line and the CSV
// header between feeds. Not thread-safe; the event loop's thread owns it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "actors/csv_source.hpp"
#include "runtime/values/value.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::net {

// What a line became: a record, or (error set) a malformed line.
struct DecodedLine {
  Value record;
  std::string error;  // set: malformed or oversized
  std::string text;   // with an error: the line's first kShownText bytes
};

class RecordDecoder {
 public:
  enum class Format { jsonl, csv };
  static constexpr std::size_t kShownText = 200;

  RecordDecoder(Format format, std::size_t max_message) : format_(format), max_(max_message) {}

  using Output = std::function<void(DecodedLine)>;
  // Cuts `bytes` into lines; a complete line (its newline seen) goes to `out`. The last,
  // incomplete one waits for the next feed.
  void feed(std::string_view bytes, const Output& out);
  // The stream ended: a last line without its newline still counts.
  void finish(const Output& out);
  // `message` is whole (a WebSocket message, an HTTP body): its lines, the last one too.
  void feed_whole(std::string_view message, const Output& out) {
    feed(message, out);
    finish(out);
  }

  // A JSON text that is one object, or an array of objects (an HTTP body of
  // application/json): each object a record, anything else malformed.
  static void decode_json_document(std::string_view text, const Output& out);

 private:
  void take(std::string& line, const Output& out);
  static void malformed(std::string_view text, std::string why, const Output& out);

  Format format_;
  std::size_t max_;
  std::string line_;       // the line being received
  bool skipping_ = false;  // the rest of an oversized line
  JsonParser json_;
  actors::CsvSplitter csv_;
  const Schema* header_ = nullptr;  // CSV: the field names, from the first line
};

}  // namespace cwf::net
