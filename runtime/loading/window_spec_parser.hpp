// The `window:` key of a connection in a workflow file, read into a WindowSpec
// (runtime/windows/window_spec.hpp; the syntax is in docs/workflow-yaml.md, "Windows").
#pragma once

#include <optional>
#include <string>

#include "runtime/loading/yaml_value.hpp"
#include "runtime/windows/window_spec.hpp"

namespace cwf {

// Reads the value of a `window:` key. Errors are LoadErrors at the offending node of `file`.
// `expired_to`, when present, is handed back unresolved (the caller resolves actor.port).
WindowSpec parse_window_spec(const YamlEntry& entry, const std::string& file,
                             std::optional<YamlEntry>* expired_to);

// `--set ACTOR.PORT.window.FIELD=VALUE`: sets one field of `spec` (size, step, timeout,
// delete_used or suppress_empty) from VALUE, read as it would be in the file. Errors are
// LoadErrors at `origin` ("--set detect.in.window.size").
void set_window_field(WindowSpec& spec, const std::string& field, const std::string& value,
                      const std::string& origin);

}  // namespace cwf
