#include "runtime/loading/param_binding.hpp"

#include "runtime/time/duration.hpp"

namespace cwf {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out;
}

[[noreturn]] void mismatch(const ParamSpec& spec, const YAML::Node& value,
                           const SourceLocation& where, const std::string& detail = {}) {
  throw LoadError(where, "expected " + std::string(param_type_name(spec.type)) + " for '" +
                             spec.name + "', got " + describe_yaml(value) +
                             (detail.empty() ? "" : ": " + detail));
}

Value convert(const ParamSpec& spec, const YAML::Node& value, const SourceLocation& where,
              const std::string& file) {
  if (spec.type == ParamType::any) return yaml_to_value(value, file);
  if (spec.type == ParamType::strings) {
    if (value.IsScalar()) return Value::array({Value(value.Scalar())});
    if (!value.IsSequence()) mismatch(spec, value, where);
    std::vector<Value> items;
    for (const YAML::Node& item : value) {
      if (!item.IsScalar())
        throw LoadError(yaml_location(item, file, where),
                        "expected a string in '" + spec.name + "', got " + describe_yaml(item));
      items.emplace_back(item.Scalar());
    }
    return Value::array(std::move(items));
  }
  // Every other type is one scalar, read from its text whether quoted or not.
  if (!value.IsScalar()) mismatch(spec, value, where);
  const std::string& text = value.Scalar();
  switch (spec.type) {
    case ParamType::boolean:
      if (auto b = parse_yaml_bool(text)) return Value(*b);
      break;
    case ParamType::integer:
      if (auto i = parse_yaml_int(text)) return Value(*i);
      break;
    case ParamType::real:
      if (auto d = parse_yaml_real(text)) return Value(*d);
      break;
    case ParamType::duration: {
      std::string reason;
      if (auto d = try_parse_duration(text, &reason)) return Value(static_cast<std::int64_t>(*d));
      mismatch(spec, value, where, reason);
    }
    case ParamType::string:
    case ParamType::expression:
      return Value(text);
    case ParamType::strings:
    case ParamType::any:
      break;
  }
  mismatch(spec, value, where);
}

}  // namespace

Params bind_params(const ActorType& type, const std::string& actor_name,
                   const SourceLocation& actor_location, const std::vector<YamlEntry>& entries,
                   const std::string& file, std::string base_dir) {
  std::map<std::string, Value> values;
  std::map<std::string, SourceLocation> locations;
  for (const YamlEntry& entry : entries) {
    const ParamSpec* spec = nullptr;
    for (const ParamSpec& candidate : type.params)
      if (candidate.name == entry.key) spec = &candidate;
    SourceLocation key_location = yaml_location(entry.key_node, file, actor_location);
    if (!spec) {
      std::vector<std::string> names;
      for (const ParamSpec& candidate : type.params)
        names.push_back(candidate.name);
      std::string message = "unknown parameter '" + entry.key + "' for actor '" + actor_name +
                            "' (type " + type.name + ")";
      if (auto suggestion = did_you_mean(entry.key, names))
        message += "; did you mean '" + *suggestion + "'?";
      else if (names.empty())
        message += "; " + type.name + " takes no parameters";
      else
        message += "; its parameters are: " + join(names);
      throw LoadError(key_location, message);
    }
    // An empty value (`key:`) has the position of whatever follows it: point at the key.
    SourceLocation where =
        entry.value.IsNull() ? key_location : yaml_location(entry.value, file, key_location);
    values[entry.key] = convert(*spec, entry.value, where, file);
    locations[entry.key] = where;
  }
  for (const ParamSpec& spec : type.params) {
    if (values.count(spec.name)) continue;
    if (!spec.default_value)
      throw LoadError(actor_location, "actor '" + actor_name + "' (type " + type.name +
                                          ") is missing required parameter '" + spec.name + "' (" +
                                          std::string(param_type_name(spec.type)) + ")");
    values[spec.name] = *spec.default_value;
    locations[spec.name] = actor_location;
  }
  return Params(std::move(values), std::move(locations), std::move(base_dir));
}

std::unique_ptr<Actor> make_actor(const ActorType& type, const std::string& actor_name,
                                  const SourceLocation& actor_location, const Params& params) {
  std::unique_ptr<Actor> actor;
  try {
    actor = type.factory(params);
  } catch (const ParamError& e) {
    SourceLocation where = params.location(e.param());
    if (where.line == 0) where = actor_location;
    throw LoadError(where,
                    "invalid '" + e.param() + "' for actor '" + actor_name + "': " + e.what());
  } catch (const LoadError&) {
    throw;
  } catch (const std::exception& e) {
    throw LoadError(actor_location, "cannot create actor '" + actor_name + "' (type " + type.name +
                                        "): " + e.what());
  }
  if (!actor)
    throw LoadError(actor_location, "cannot create actor '" + actor_name + "' (type " + type.name +
                                        "): the factory returned nothing");
  return actor;
}

}  // namespace cwf
