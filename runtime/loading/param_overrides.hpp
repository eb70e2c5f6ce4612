// Parameters given on the command line (`cwf run --set ACTOR.PARAM=VALUE`) that replace, or add,
// a parameter of an actor of the loaded workflow before the actor is built, so that one workflow
// file serves any input and output paths. VALUE is read as the YAML scalar it would be in the
// file, and checked against the actor type's schema like one written there.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cwf {

struct ParamOverride {
  std::string actor;
  std::string param;
  std::string value;
  // The folder a relative path in `value` is relative to; empty: the current directory (a value
  // typed on the command line). An experiment file's `set:` gives its own folder.
  std::string base_dir = {};
  // "--set ACTOR.PARAM", naming the override in errors.
  std::string origin() const { return "--set " + actor + "." + param; }

  // "ACTOR.PORT.window.FIELD=VALUE" sets a field of the window on the actor's input port PORT
  // (size, step, timeout, delete_used, suppress_empty) instead of a parameter.
  struct WindowField {
    std::string port;
    std::string field;
  };
  std::optional<WindowField> window_field() const;
};

// "ACTOR.PARAM=VALUE" (VALUE may be empty and may contain '=' and '.'); throws
// std::invalid_argument saying what is wrong.
ParamOverride parse_param_override(std::string_view text);

}  // namespace cwf
