#include "actors/net/record_decoder.hpp"

#include <stdexcept>
#include <vector>

namespace cwf::net {

void RecordDecoder::feed(std::string_view bytes, const Output& out) {
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, newline);
    if (!skipping_) {
      const std::size_t room = max_ - std::min(max_, line_.size());
      if (piece.size() > room) {
        line_.append(piece.substr(0, room + 1));
        malformed(line_, "a line longer than " + std::to_string(max_) + " bytes (max_message)",
                  out);
        line_.clear();
        skipping_ = true;
      } else {
        line_.append(piece);
      }
    }
    if (newline == std::string_view::npos) return;
    if (!skipping_) take(line_, out);
    line_.clear();
    skipping_ = false;
    bytes.remove_prefix(newline + 1);
  }
}

void RecordDecoder::finish(const Output& out) {
  if (!skipping_) take(line_, out);
  line_.clear();
  skipping_ = false;
}

void RecordDecoder::take(std::string& text, const Output& out) {
  if (!text.empty() && text.back() == '\r') text.pop_back();
  if (text.empty()) return;
  if (format_ == Format::jsonl) {
    try {
      Value record = json_.parse(text);
      if (!record.is_record())
        return malformed(
            text, "expected a JSON object, got " + std::string(kind_name(record.kind())), out);
      out({std::move(record), {}, {}});
    } catch (const JsonError& e) {
      malformed(text, std::string("invalid JSON at ") + e.what(), out);
    }
    return;
  }
  if (csv_.split(text) != actors::CsvSplitter::Result::ok)
    return malformed(text, "a CSV line with an unterminated or misplaced quote", out);
  const auto& fields = csv_.fields();
  if (!header_) {
    std::vector<std::string> names;
    for (const auto& field : fields)
      names.emplace_back(field.text);
    try {
      header_ = Schema::intern(names);
    } catch (const std::invalid_argument& e) {
      // Two columns of one name: the next line is taken as the header instead.
      malformed(text, std::string("not a header: ") + e.what(), out);
    }
    return;
  }
  if (fields.size() != header_->size())
    return malformed(text,
                     "expected " + std::to_string(header_->size()) +
                         " fields (the header's), got " + std::to_string(fields.size()),
                     out);
  std::vector<Value> slots(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i)
    actors::convert_csv_field(fields[i], actors::CsvType::infer, slots[i]);
  out({Value::record(header_, std::move(slots)), {}, {}});
}

void RecordDecoder::decode_json_document(std::string_view text, const Output& out) {
  Value document;
  try {
    document = JsonParser().parse(text);
  } catch (const JsonError& e) {
    return malformed(text, std::string("invalid JSON at ") + e.what(), out);
  }
  auto one = [&](const Value& value) {
    if (value.is_record())
      out({value, {}, {}});
    else
      malformed(value.to_json(),
                "expected a JSON object, got " + std::string(kind_name(value.kind())), out);
  };
  if (!document.is_array()) return one(document);
  for (const Value& element : document.as_array())
    one(element);
}

void RecordDecoder::malformed(std::string_view text, std::string why, const Output& out) {
  out({Value(), std::move(why), std::string(text.substr(0, kShownText))});
}

}  // namespace cwf::net
