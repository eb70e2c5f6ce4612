#include "actors/jsonl_sink.hpp"

#include <filesystem>
#include <stdexcept>

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

JsonlSink::JsonlSink(std::string path) : Actor(kPorts), path_(std::move(path)) {}

void JsonlSink::initialize(ActorContext& context) {
  try {
    writer_.open(
        path_, context.resuming() ? BufferedWriter::Mode::append : BufferedWriter::Mode::truncate);
  } catch (const std::exception& e) {
    throw std::runtime_error(context.name() + ": " + e.what());
  }
}

void JsonlSink::fire(FiringContext& context) {
  std::string& out = writer_.buffer();
  for (const Event& event : context.window()) {
    event.token.append_json(out);
    out.push_back('\n');
  }
  writer_.count_event(context.window().size());
  writer_.maybe_flush();
  report_write_losses(context, writer_, path_);
}

void JsonlSink::save_state(SnapshotWriter& out, ActorContext&) {
  save_output(writer_, out, path_);
}

void JsonlSink::restore_state(SnapshotReader& in, ActorContext&) {
  restore_output(writer_, in, path_);
}

void JsonlSink::wrapup(ActorContext& context) {
  writer_.close();
  report_write_losses(context, writer_, path_);
}

ActorType jsonl_sink_type() {
  return make_type(
      "jsonl_sink", "Writes each token as one line of JSON.",
      {
          {"path", ParamType::string, std::nullopt,
           "the file to write (created or emptied, or in a resumed run cut back to the checkpoint; "
           "relative to the workflow file's folder)"},
      },
      JsonlSink::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::string path = params.path("path");
        std::filesystem::path parent = std::filesystem::path(path).parent_path();
        if (!parent.empty() && !std::filesystem::is_directory(parent))
          throw ParamError("path", "no folder '" + parent.string() + "'");
        return std::make_unique<JsonlSink>(std::move(path));
      });
}

}  // namespace cwf::actors
