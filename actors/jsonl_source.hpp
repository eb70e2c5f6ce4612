// jsonl_source: one record per line of a JSON-lines file; each line must be a JSON object
// (nested objects become records, arrays arrays). Blank lines are skipped.
#pragma once

#include "actors/file_source.hpp"
#include "runtime/loading/actor_registry.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::actors {

class JsonlSource final : public FileSource {
 public:
  explicit JsonlSource(FileSourceOptions options) : FileSource(std::move(options)) {}

 protected:
  Parsed parse(std::string_view& line, Value& out, std::string& error) override;

 private:
  JsonParser parser_;
};

ActorType jsonl_source_type();

}  // namespace cwf::actors
