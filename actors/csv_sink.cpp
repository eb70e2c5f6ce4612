#include "actors/csv_sink.hpp"

#include <filesystem>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

CsvSink::CsvSink(CsvSinkOptions options) : Actor(kPorts), options_(std::move(options)) {}

void CsvSink::initialize(ActorContext& context) {
  try {
    writer_.open(options_.path, context.resuming() ? BufferedWriter::Mode::append
                                                   : BufferedWriter::Mode::truncate);
  } catch (const std::exception& e) {
    throw std::runtime_error(context.name() + ": " + e.what());
  }
  started_ = false;
  last_schema_ = nullptr;
  // A resumed run's header is in the file already (restore_state).
  if (!options_.columns.empty() && !context.resuming()) start(options_.columns);
}

void CsvSink::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_bool(started_);
  out.write_u64(columns_.size());
  for (const std::string& column : columns_)
    out.write_string(column);
  // Last, so that a resumed run cuts the file back only once it has read the rest.
  save_output(writer_, out, options_.path);
}

void CsvSink::restore_state(SnapshotReader& in, ActorContext&) {
  bool started = in.read_bool("whether the header was written");
  std::vector<std::string> columns(in.read_count("the number of columns"));
  for (std::string& column : columns)
    column = in.read_string("a column");
  restore_output(writer_, in, options_.path);
  started_ = started;
  columns_ = std::move(columns);
  last_schema_ = nullptr;
}

void CsvSink::start(std::vector<std::string> columns) {
  columns_ = std::move(columns);
  started_ = true;
  if (!options_.header) return;
  std::string& out = writer_.buffer();
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (i) out.push_back(options_.separator);
    append_csv_field(out, Value(columns_[i]), options_.separator);
  }
  out.push_back('\n');
}

void CsvSink::write_row(const Value& token) {
  if (!started_) {
    if (token.is_record()) {
      auto fields = token.schema()->fields();
      start(std::vector<std::string>(fields.begin(), fields.end()));
    } else {
      start({"value"});
    }
  }
  std::string& out = writer_.buffer();
  const char sep = options_.separator;
  if (token.is_record()) {
    const Schema* schema = token.schema();
    if (schema != last_schema_) {
      last_schema_ = schema;
      slot_of_column_.resize(columns_.size());
      for (std::size_t i = 0; i < columns_.size(); ++i)
        slot_of_column_[i] = schema->slot(columns_[i]);
    }
    auto slots = token.slots();
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      if (i) out.push_back(sep);
      if (int slot = slot_of_column_[i]; slot >= 0)
        append_csv_field(out, slots[static_cast<std::size_t>(slot)], sep);
    }
  } else {
    append_csv_field(out, token, sep);
    for (std::size_t i = 1; i < columns_.size(); ++i)
      out.push_back(sep);
  }
  out.push_back('\n');
}

void CsvSink::fire(FiringContext& context) {
  for (const Event& event : context.window())
    write_row(event.token);
  writer_.count_event(context.window().size());
  writer_.maybe_flush();
  report_write_losses(context, writer_, options_.path);
}

void CsvSink::wrapup(ActorContext& context) {
  writer_.close();
  report_write_losses(context, writer_, options_.path);
}

ActorType csv_sink_type() {
  return make_type(
      "csv_sink", "Writes each token as a row of a CSV file.",
      {
          {"path", ParamType::string, std::nullopt,
           "the file to write (created or truncated; relative to the workflow file's folder)"},
          {"columns", ParamType::strings, Value(),
           "the columns, in order; not set: the fields of the first record"},
          {"header", ParamType::boolean, Value(true), "whether to write a header line first"},
          {"separator", ParamType::string, Value(","),
           "field separator: one character; \"\\t\" or tab for tabs"},
      },
      CsvSink::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        CsvSinkOptions options;
        options.path = params.path("path");
        std::filesystem::path parent = std::filesystem::path(options.path).parent_path();
        if (!parent.empty() && !std::filesystem::is_directory(parent))
          throw ParamError("path", "no folder '" + parent.string() + "'");
        if (is_set(params, "columns")) options.columns = params.get_strings("columns");
        options.header = params.get_bool("header");
        options.separator = parse_separator(params, "separator");
        return std::make_unique<CsvSink>(std::move(options));
      });
}

}  // namespace cwf::actors
