// Actor types by name, each with a typed parameter schema, its ports (the ActorPorts its actors
// are built with, not a copy) and a factory. The YAML loader checks a workflow's parameters
// against the schema (types, required, unknown keys with a did-you-mean) before calling the
// factory, so factories read already-validated values.
// The runtime registers no concrete actor: libraries add theirs (actors::register_all).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/actor/actor.hpp"
#include "runtime/graph/workflow.hpp"
#include "runtime/values/did_you_mean.hpp"  // did_you_mean, for names not in the registry
#include "runtime/values/value.hpp"

namespace cwf {

enum class ParamType {
  boolean,
  integer,
  real,  // accepts integers too
  string,
  duration,    // "500 ms", "30 s", "1 min", a number of seconds; stored as int nanoseconds
  expression,  // a string compiled by the factory with the expression language
  strings,     // a list of strings (a single string is a list of one)
  any,         // any YAML value converted to a Value
};

std::string_view param_type_name(ParamType type);

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::string;
  std::optional<Value> default_value;  // nullopt: required
  std::string doc;
  // It may be changed while the workflow runs (`cwf set` on a server): the actor takes the new
  // value between two firings (Actor::adopt_parameter).
  bool changeable = false;
};

// An input file an actor needs to run that cannot be read now, found while the workflow is only
// checked or drawn (LoadContext::missing_inputs): `reason` says why ("cannot open 'x': ...").
struct MissingInput {
  std::string param;
  std::string reason;
};

// Validated parameters of one actor instance.
class Params {
 public:
  Params() = default;
  Params(std::map<std::string, Value> values, std::map<std::string, SourceLocation> locations,
         std::string base_dir)
      : values_(std::move(values)),
        locations_(std::move(locations)),
        base_dir_(std::move(base_dir)) {}

  bool has(std::string_view name) const { return values_.find(std::string(name)) != values_.end(); }
  // Throws std::invalid_argument if absent (cannot happen for declared parameters).
  const Value& get(std::string_view name) const;
  bool get_bool(std::string_view name) const { return get(name).as_bool(); }
  std::int64_t get_int(std::string_view name) const { return get(name).as_int(); }
  double get_double(std::string_view name) const { return get(name).as_double(); }
  std::string get_string(std::string_view name) const { return std::string(get(name).as_string()); }
  Duration get_duration(std::string_view name) const { return get(name).as_int(); }
  std::vector<std::string> get_strings(std::string_view name) const;
  // Where the parameter was written, for errors the factory raises (ParamError).
  SourceLocation location(std::string_view name) const;
  // The string parameter `name` as a path. A relative one is relative to the folder of the
  // workflow file that wrote it, or, when it was set from outside the file, to the folder the
  // setting names: the current directory for `cwf run --set` (where the user stands).
  std::string path(std::string_view name) const;
  const std::string& base_dir() const { return base_dir_; }
  void set(std::string name, Value value) { values_[std::move(name)] = std::move(value); }

  // For a factory whose input file (named by parameter `name`) cannot be read, `reason` saying
  // why. Throws ParamError when the workflow is to run. When it is only checked or drawn, records
  // it for the loader and returns: the factory builds the actor without the file, so that a
  // workflow can be checked without its data.
  void input_missing(std::string_view name, std::string reason) const;

  // Set by the loader: the parameters set from outside the file (ParamOverride), each with the
  // folder its relative paths are relative to ("": the current directory).
  void set_outside_file(std::map<std::string, std::string> base_dirs) {
    outside_file_ = std::move(base_dirs);
  }
  // Set by the loader: where input_missing records, instead of throwing.
  void collect_missing_inputs(std::vector<MissingInput>* sink) { missing_inputs_ = sink; }

 private:
  std::map<std::string, Value> values_;
  std::map<std::string, SourceLocation> locations_;
  std::string base_dir_;
  std::map<std::string, std::string> outside_file_;  // parameter -> base folder
  std::vector<MissingInput>* missing_inputs_ = nullptr;
};

// Thrown by factories for a parameter that is well-typed but wrong (bad expression, missing
// file); the loader reports it at the parameter's location.
class ParamError : public std::runtime_error {
 public:
  ParamError(std::string param, std::string message)
      : std::runtime_error(std::move(message)), param_(std::move(param)) {}
  const std::string& param() const { return param_; }

 private:
  std::string param_;
};

struct ActorType {
  std::string name;
  std::string doc;
  std::vector<ParamSpec> params;
  ActorPorts ports;  // the actor class's own declaration (kPorts), shown by `cwf actors`
  std::function<std::unique_ptr<Actor>(const Params&)> factory;
};

class ActorRegistry {
 public:
  void add(ActorType type);
  const ActorType* find(std::string_view name) const;
  std::vector<const ActorType*> list() const;
  std::vector<std::string> names() const;

 private:
  std::map<std::string, ActorType, std::less<>> types_;
};

}  // namespace cwf
