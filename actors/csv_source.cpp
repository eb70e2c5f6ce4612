#include "actors/csv_source.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "actors/actor_type_util.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

namespace {

// How far a quoted field may run on over following lines before the record counts as broken.
constexpr int kMaxContinuationLines = 1000;

std::string_view strip_bom(std::string_view line) {
  if (line.size() >= 3 && std::memcmp(line.data(), "\xEF\xBB\xBF", 3) == 0) line.remove_prefix(3);
  return line;
}

bool looks_numeric(std::string_view s) {
  std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  return i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.');
}

bool parse_int(std::string_view s, std::int64_t& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

bool parse_double(std::string_view s, double& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || !looks_numeric(s)) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// A column declared double also takes the other spellings of infinity and NaN (inf, -INF, nan,
// infinity, in any case), as strtod does.
bool parse_non_finite(std::string_view s, double& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty() && !std::isfinite(out);
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);
         });
}

std::string_view type_name(CsvType type) {
  switch (type) {
    case CsvType::infer:
      return "infer";
    case CsvType::string:
      return "string";
    case CsvType::integer:
      return "int";
    case CsvType::real:
      return "double";
    case CsvType::boolean:
      return "bool";
  }
  return "?";
}

CsvType parse_type(std::string_view name) {
  if (name == "infer" || name == "auto") return CsvType::infer;
  if (name == "string" || name == "str") return CsvType::string;
  if (name == "int" || name == "integer") return CsvType::integer;
  if (name == "double" || name == "real" || name == "number" || name == "float")
    return CsvType::real;
  if (name == "bool" || name == "boolean") return CsvType::boolean;
  throw ParamError("schema", "unknown column type '" + std::string(name) +
                                 "' (expected int, double, string, bool or infer)");
}

// Header names: empty ones become c<i>.
std::vector<std::string> header_names(const CsvSplitter& splitter) {
  std::vector<std::string> names;
  for (const auto& f : splitter.fields())
    names.emplace_back(f.text.empty() ? "c" + std::to_string(names.size()) : std::string(f.text));
  return names;
}

}  // namespace

bool convert_csv_field(const CsvSplitter::Field& field, CsvType type, Value& out) {
  std::string_view s = field.text;
  if (s.empty()) {
    out = field.quoted && (type == CsvType::infer || type == CsvType::string) ? Value("") : Value();
    return true;
  }
  switch (type) {
    case CsvType::infer: {
      if (looks_numeric(s)) {
        std::int64_t i;
        if (parse_int(s, i)) {
          out = Value(i);
          return true;
        }
        double d;
        if (parse_double(s, d)) {
          out = Value(d);
          return true;
        }
      }
      // What the sinks write for a double that is not finite reads back as that double.
      if (double d; parse_non_finite_word(s, d)) {
        out = Value(d);
        return true;
      }
      out = Value(s);
      return true;
    }
    case CsvType::string:
      out = Value(s);
      return true;
    case CsvType::integer: {
      std::int64_t i;
      if (!parse_int(s, i)) return false;
      out = Value(i);
      return true;
    }
    case CsvType::real: {
      double d;
      if (!parse_double(s, d) && !parse_non_finite(s, d)) return false;
      out = Value(d);
      return true;
    }
    case CsvType::boolean:
      if (iequals(s, "true") || s == "1") {
        out = Value(true);
        return true;
      }
      if (iequals(s, "false") || s == "0") {
        out = Value(false);
        return true;
      }
      return false;
  }
  return false;
}

CsvSplitter::Result CsvSplitter::split(std::string_view line) {
  fields_.clear();
  unescaped_.clear();
  unescaped_.reserve(line.size());  // never reallocates below: views into it stay valid
  const std::size_t n = line.size();
  std::size_t pos = 0;
  for (;;) {
    if (pos < n && line[pos] == '"') {
      std::size_t start = pos + 1;
      std::size_t close = line.find('"', start);
      if (close == std::string_view::npos) return Result::unterminated;
      if (close + 1 < n && line[close + 1] == '"') {
        // Doubled quotes inside: unescape into the scratch buffer.
        std::size_t from = unescaped_.size();
        pos = start;
        for (;;) {
          close = line.find('"', pos);
          if (close == std::string_view::npos) return Result::unterminated;
          unescaped_.append(line.substr(pos, close - pos));
          if (close + 1 < n && line[close + 1] == '"') {
            unescaped_.push_back('"');
            pos = close + 2;
            continue;
          }
          break;
        }
        fields_.push_back({std::string_view(unescaped_).substr(from), true});
      } else {
        fields_.push_back({line.substr(start, close - start), true});
      }
      pos = close + 1;
      if (pos == n) return Result::ok;
      if (line[pos] != separator_) return Result::bad_quote;
      ++pos;
      continue;
    }
    const void* sep = pos < n ? std::memchr(line.data() + pos, separator_, n - pos) : nullptr;
    if (!sep) {
      fields_.push_back({line.substr(pos), false});
      return Result::ok;
    }
    std::size_t stop = static_cast<std::size_t>(static_cast<const char*>(sep) - line.data());
    fields_.push_back({line.substr(pos, stop - pos), false});
    pos = stop + 1;
  }
}

CsvSource::CsvSource(FileSourceOptions options, CsvOptions csv)
    : FileSource(std::move(options)), csv_(std::move(csv)), splitter_(csv_.separator) {}

void CsvSource::set_names(std::vector<std::string> names) {
  schema_ = Schema::intern(names);
  types_.assign(names.size(), csv_.default_type);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (auto it = csv_.schema.find(names[i]); it != csv_.schema.end()) types_[i] = it->second;
  slots_.assign(names.size(), Value());
}

void CsvSource::on_open(ActorContext&) {
  schema_ = nullptr;
  if (csv_.header) {
    std::string_view line;
    if (!reader().next(line)) return;  // an empty file: no events
    line = strip_bom(line);
    if (splitter_.split(line) != CsvSplitter::Result::ok) return;
    std::vector<std::string> names = header_names(splitter_);
    if (!csv_.columns.empty() && csv_.columns.size() == names.size()) names = csv_.columns;
    set_names(std::move(names));
  } else if (!csv_.columns.empty()) {
    set_names(csv_.columns);
  }
}

void CsvSource::save_state(SnapshotWriter& out, ActorContext& context) {
  FileSource::save_state(out, context);
  out.write_bool(schema_ != nullptr);
  if (!schema_) return;
  out.write_u64(schema_->size());
  for (const std::string& name : schema_->fields())
    out.write_string(name);
}

void CsvSource::restore_state(SnapshotReader& in, ActorContext& context) {
  FileSource::restore_state(in, context);
  if (!in.read_bool("whether the columns are named")) {
    schema_ = nullptr;
    return;
  }
  std::vector<std::string> names(in.read_count("the number of columns"));
  for (std::string& name : names)
    name = in.read_string("a column name");
  try {
    set_names(std::move(names));
  } catch (const std::exception& e) {
    in.reject("the column names", e.what());
  }
}

FileSource::Parsed CsvSource::parse(std::string_view& line, Value& out, std::string& error) {
  if (reader().line_number() == 1) line = strip_bom(line);
  CsvSplitter::Result result = splitter_.split(line);
  if (result == CsvSplitter::Result::unterminated) {
    record_buf_.assign(line);
    for (int i = 0; i < kMaxContinuationLines && result == CsvSplitter::Result::unterminated; ++i) {
      std::string_view more;
      if (!reader().next(more)) {
        if (reader().waiting()) return Parsed::incomplete;  // the rest is still being read
        break;
      }
      record_buf_ += '\n';
      record_buf_ += more;
      result = splitter_.split(record_buf_);
    }
    line = record_buf_;
  }
  if (result == CsvSplitter::Result::unterminated) {
    error = "unterminated quoted field";
    return Parsed::malformed;
  }
  if (result == CsvSplitter::Result::bad_quote) {
    error = "unexpected character after a closing quote";
    return Parsed::malformed;
  }
  const auto& fields = splitter_.fields();
  if (!schema_) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < fields.size(); ++i)
      names.push_back("c" + std::to_string(i));
    set_names(std::move(names));
  }
  if (fields.size() != schema_->size()) {
    error = "expected " + std::to_string(schema_->size()) + " fields, found " +
            std::to_string(fields.size());
    return Parsed::malformed;
  }
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (!convert_csv_field(fields[i], types_[i], slots_[i])) {
      error = "column '" + schema_->fields()[i] + "': '" + std::string(fields[i].text) +
              "' is not " + (types_[i] == CsvType::integer ? "an " : "a ") +
              std::string(type_name(types_[i]));
      return Parsed::malformed;
    }
  }
  out = Value::record(schema_, slots_);
  return Parsed::record;
}

ActorType csv_source_type() {
  std::vector<ParamSpec> params = file_source_params();
  params.push_back(
      {"header", ParamType::boolean, Value(true), "whether the first line names the columns"});
  params.push_back({"columns", ParamType::strings, Value(),
                    "field names: those of the columns when there is no header, or new names "
                    "for the header's (same count); not set: the header's, else c0, c1, ..."});
  params.push_back({"types", ParamType::string, Value("infer"),
                    "infer (int, then double, else string; an empty field is null) or strings "
                    "(every field a string, an empty one null)"});
  params.push_back({"schema", ParamType::any, Value(),
                    "types of named columns, e.g. {id: int, price: double, name: string, ok: "
                    "bool}; a field that does not convert makes the line malformed; without "
                    "header and columns its keys also name the columns, in order"});
  params.push_back({"separator", ParamType::string, Value(","),
                    "field separator: one character; \"\\t\" or tab for tabs"});
  return make_type(
      "csv_source",
      "Reads a CSV file and emits one record per line; malformed lines go to `errors`.",
      std::move(params), FileSource::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        FileSourceOptions options = file_source_options(params);
        CsvOptions csv;
        csv.header = params.get_bool("header");
        csv.separator = parse_separator(params, "separator");
        std::string types = params.get_string("types");
        if (types == "infer")
          csv.default_type = CsvType::infer;
        else if (types == "strings" || types == "string")
          csv.default_type = CsvType::string;
        else
          throw ParamError("types", "unknown types '" + types + "' (expected infer or strings)");
        if (is_set(params, "columns")) csv.columns = params.get_strings("columns");
        std::vector<std::string> schema_order;
        if (is_set(params, "schema")) {
          const Value& schema = params.get("schema");
          if (!schema.is_record())
            throw ParamError("schema", "expected a mapping from column names to types");
          auto names = schema.schema()->fields();
          auto types_given = schema.slots();
          for (std::size_t i = 0; i < names.size(); ++i) {
            if (!types_given[i].is_string())
              throw ParamError("schema", "the type of column '" + names[i] + "' must be a string");
            csv.schema[names[i]] = parse_type(types_given[i].as_string());
            schema_order.push_back(names[i]);
          }
        }
        // Check the names against the header now, so that mistakes are reported at load time:
        // in a regular file only (reading a pipe's header would take it from the source).
        std::vector<std::string> names;
        if (csv.header && std::filesystem::is_regular_file(options.path)) {
          LineReader reader;
          std::string_view line;
          if (reader.open(options.path) && reader.next(line)) {
            CsvSplitter splitter(csv.separator);
            if (splitter.split(strip_bom(line)) != CsvSplitter::Result::ok)
              throw ParamError("path", options.path + ":1: malformed header line");
            names = header_names(splitter);
            if (!csv.columns.empty() && csv.columns.size() != names.size())
              throw ParamError("columns", "the header has " + std::to_string(names.size()) +
                                              " columns but `columns` names " +
                                              std::to_string(csv.columns.size()));
          }
        } else if (csv.columns.empty() && !schema_order.empty()) {
          csv.columns = schema_order;
        }
        if (!csv.columns.empty()) names = csv.columns;
        for (std::size_t i = 0; i < names.size(); ++i)
          for (std::size_t j = 0; j < i; ++j)
            if (names[i] == names[j])
              throw ParamError(csv.columns.empty() ? "path" : "columns",
                               "duplicate column name '" + names[i] + "'");
        if (!names.empty())
          for (const auto& [column, type] : csv.schema)
            if (std::find(names.begin(), names.end(), column) == names.end())
              throw ParamError("schema", "no column '" + column + "'");
        return std::make_unique<CsvSource>(std::move(options), std::move(csv));
      });
}

}  // namespace cwf::actors
