#include "actors/jsonl_source.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

FileSource::Parsed JsonlSource::parse(std::string_view& line, Value& out, std::string& error) {
  try {
    out = parser_.parse(line);
  } catch (const JsonError& e) {
    error = std::string("invalid JSON at ") + e.what();
    return Parsed::malformed;
  }
  if (!out.is_record()) {
    error = "expected a JSON object, got " + std::string(kind_name(out.kind()));
    return Parsed::malformed;
  }
  return Parsed::record;
}

ActorType jsonl_source_type() {
  return make_type(
      "jsonl_source",
      "Reads a JSON-lines file (one object per line) and emits one record per line; malformed "
      "lines go to `errors`.",
      file_source_params(), FileSource::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        return std::make_unique<JsonlSource>(file_source_options(params));
      });
}

}  // namespace cwf::actors
