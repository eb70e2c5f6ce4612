#include "runtime/loading/actor_registry.hpp"

#include <filesystem>
#include <stdexcept>

namespace cwf {

std::string_view param_type_name(ParamType type) {
  switch (type) {
    case ParamType::boolean:
      return "bool";
    case ParamType::integer:
      return "int";
    case ParamType::real:
      return "number";
    case ParamType::string:
      return "string";
    case ParamType::duration:
      return "duration";
    case ParamType::expression:
      return "expression";
    case ParamType::strings:
      return "list of strings";
    case ParamType::any:
      return "any";
  }
  return "?";
}

const Value& Params::get(std::string_view name) const {
  auto it = values_.find(std::string(name));
  if (it == values_.end()) throw std::invalid_argument("no parameter '" + std::string(name) + "'");
  return it->second;
}

std::vector<std::string> Params::get_strings(std::string_view name) const {
  const Value& v = get(name);
  std::vector<std::string> out;
  if (v.is_string()) {
    out.emplace_back(v.as_string());
    return out;
  }
  for (const Value& item : v.as_array())
    out.emplace_back(item.as_string());
  return out;
}

SourceLocation Params::location(std::string_view name) const {
  auto it = locations_.find(std::string(name));
  return it == locations_.end() ? SourceLocation{} : it->second;
}

std::string Params::path(std::string_view name) const {
  std::string text = get_string(name);
  auto outside = outside_file_.find(std::string(name));
  const std::string& base = outside == outside_file_.end() ? base_dir_ : outside->second;
  std::filesystem::path p(text);
  if (p.is_absolute() || base.empty()) return text;
  return (std::filesystem::path(base) / p).lexically_normal().string();
}

void Params::input_missing(std::string_view name, std::string reason) const {
  if (!missing_inputs_) throw ParamError(std::string(name), std::move(reason));
  missing_inputs_->push_back(MissingInput{std::string(name), std::move(reason)});
}

void ActorRegistry::add(ActorType type) {
  std::string name = type.name;
  types_[std::move(name)] = std::move(type);
}

const ActorType* ActorRegistry::find(std::string_view name) const {
  auto it = types_.find(name);
  return it == types_.end() ? nullptr : &it->second;
}

std::vector<const ActorType*> ActorRegistry::list() const {
  std::vector<const ActorType*> out;
  for (const auto& [name, type] : types_)
    out.push_back(&type);
  return out;
}

std::vector<std::string> ActorRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, type] : types_)
    out.push_back(name);
  return out;
}

}  // namespace cwf
