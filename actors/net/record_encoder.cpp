#include "actors/net/record_encoder.hpp"

#include "actors/output.hpp"

namespace cwf::net {

void RecordEncoder::append(std::string& out, const Value& value) {
  if (format_ == RecordDecoder::Format::jsonl) {
    out += value.to_json();
    out += '\n';
    return;
  }
  if (columns_.empty()) {
    if (value.is_record()) {
      for (const std::string& name : value.schema()->fields())
        columns_.push_back(name);
    } else {
      columns_.emplace_back("value");
    }
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      if (i) header_ += ',';
      actors::append_csv_field(header_, Value(columns_[i]), ',');
    }
    header_ += '\n';
  }
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (i) out += ',';
    if (!value.is_record()) {
      actors::append_csv_field(out, value, ',');
      continue;
    }
    if (const Value* field = value.field(columns_[i])) actors::append_csv_field(out, *field, ',');
  }
  out += '\n';
}

}  // namespace cwf::net
