// Records as the network sinks send them: one JSON object a line, or CSV lines under a header
// line taken from the first record (its fields in order; a token that is not a record is one
// column, "value"). The counterpart of RecordDecoder.
#pragma once

#include <string>
#include <vector>

#include "actors/net/record_decoder.hpp"
#include "runtime/values/value.hpp"

namespace cwf::net {

class RecordEncoder {
 public:
  explicit RecordEncoder(RecordDecoder::Format format) : format_(format) {}

  // Appends `value`'s line (with its newline) to `out`.
  void append(std::string& out, const Value& value);
  // CSV: the header line (with its newline) once the first record fixed it; else empty.
  const std::string& header() const { return header_; }

 private:
  RecordDecoder::Format format_;
  std::vector<std::string> columns_;  // CSV, from the first record
  std::string header_;
};

}  // namespace cwf::net
