#include "runtime/actor_registry.hpp"

#include <algorithm>
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

std::string Params::resolve_path(std::string_view path) const {
  std::filesystem::path p(path);
  if (p.is_absolute() || base_dir_.empty()) return std::string(path);
  return (std::filesystem::path(base_dir_) / p).lexically_normal().string();
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

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}
}  // namespace

std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(word, c);
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  // A typo changes a few characters; beyond a third of the word it is a different word.
  if (best && best_distance <= std::max<std::size_t>(2, word.size() / 3)) return best;
  return std::nullopt;
}

}  // namespace cwf
