#include "actors/eca/history_sink.hpp"

#include <filesystem>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "actors/eca/occurrence_io.hpp"

namespace cwf::eca {

HistorySink::HistorySink(std::string path, bool append)
    : Actor(kPorts), path_(std::move(path)), append_(append) {}

void HistorySink::initialize(ActorContext& context) {
  try {
    // A resumed run keeps the file: restore_state cuts it back to the checkpoint.
    writer_.open(path_, append_ || context.resuming() ? actors::BufferedWriter::Mode::append
                                                      : actors::BufferedWriter::Mode::truncate);
  } catch (const std::exception& e) {
    throw std::runtime_error(context.name() + ": " + e.what());
  }
}

void HistorySink::save_state(SnapshotWriter& out, ActorContext&) {
  actors::save_output(writer_, out, path_);
}

void HistorySink::restore_state(SnapshotReader& in, ActorContext&) {
  actors::restore_output(writer_, in, path_);
}

void HistorySink::fire(FiringContext& context) {
  std::string& out = writer_.buffer();
  for_each_occurrence(context, [&](const Value& occurrence) {
    occurrence.append_json(out);
    out.push_back('\n');
    writer_.count_event();
  });
  writer_.maybe_flush();
  actors::report_write_losses(context, writer_, path_);
}

void HistorySink::wrapup(ActorContext& context) {
  writer_.close();
  actors::report_write_losses(context, writer_, path_);
}

ActorType history_sink_type() {
  return actors::make_type(
      "eca_history", "The event history: every occurrence as one JSON line, in arrival order.",
      {{"path", ParamType::string, std::nullopt,
        "the history file (relative to the workflow file's folder)"},
       {"append", ParamType::boolean, Value(false),
        "append to an existing history instead of starting a new one"}},
      HistorySink::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::string path = params.path("path");
        std::filesystem::path parent = std::filesystem::path(path).parent_path();
        if (!parent.empty() && !std::filesystem::is_directory(parent))
          throw ParamError("path", "no folder '" + parent.string() + "'");
        return std::make_unique<HistorySink>(std::move(path), params.get_bool("append"));
      });
}

}  // namespace cwf::eca
