// csv_source: one record per line of a CSV file (RFC 4180 quoting, fields in quotes may contain
// the separator, doubled quotes and newlines). Field names come from the header line, from
// `columns`, or are c0, c1, ...; values are inferred (int, double, else string; an empty field
// is null; the words Infinity, -Infinity and NaN that the sinks write are doubles) or converted as
// `schema` says.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "actors/file_source.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

enum class CsvType { infer, string, integer, real, boolean };

struct CsvOptions {
  bool header = true;
  std::vector<std::string> columns;  // the field names (renaming the header's when there is one)
  CsvType default_type = CsvType::infer;
  std::map<std::string, CsvType, std::less<>> schema;  // per-column types
  char separator = ',';
};

// Splits CSV lines into fields without allocating per line.
class CsvSplitter {
 public:
  struct Field {
    std::string_view text;
    bool quoted = false;
  };
  enum class Result { ok, unterminated, bad_quote };

  explicit CsvSplitter(char separator = ',') : separator_(separator) {}
  // The views stay valid until the next call (and while `line` lives).
  Result split(std::string_view line);
  const std::vector<Field>& fields() const { return fields_; }

 private:
  char separator_;
  std::vector<Field> fields_;
  std::string unescaped_;
};

// One field as a Value of `type` (infer: int, then double, else string; an empty field is null,
// an empty quoted one ""); false when it does not convert.
bool convert_csv_field(const CsvSplitter::Field& field, CsvType type, Value& out);

class CsvSource final : public FileSource {
 public:
  CsvSource(FileSourceOptions options, CsvOptions csv);
  // The file source's state and the column names (taken from the first line without a header).
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 protected:
  void on_open(ActorContext& context) override;
  Parsed parse(std::string_view& line, Value& out, std::string& error) override;

 private:
  void set_names(std::vector<std::string> names);

  CsvOptions csv_;
  CsvSplitter splitter_;
  const Schema* schema_ = nullptr;
  std::vector<CsvType> types_;
  std::vector<Value> slots_;
  std::string record_buf_;  // a record spanning lines
};

ActorType csv_source_type();

}  // namespace cwf::actors
