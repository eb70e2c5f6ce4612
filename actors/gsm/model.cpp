#include "actors/gsm/model.hpp"

namespace cwf::gsm {

std::string_view data_type_name(DataType type) {
  switch (type) {
    case DataType::string:
      return "string";
    case DataType::integer:
      return "int";
    case DataType::real:
      return "double";
    case DataType::boolean:
      return "bool";
    case DataType::any:
      return "any";
  }
  return "any";
}

std::optional<DataType> parse_data_type(std::string_view name) {
  if (name == "string") return DataType::string;
  if (name == "int") return DataType::integer;
  if (name == "double") return DataType::real;
  if (name == "bool") return DataType::boolean;
  if (name == "any") return DataType::any;
  return std::nullopt;
}

const std::string& Model::status_name(int attribute) const {
  if (is_stage(attribute)) return stages[static_cast<std::size_t>(attribute)].name;
  return milestone_of(attribute).name;
}

std::optional<int> Model::find_status(std::string_view name) const {
  for (std::size_t i = 0; i < status_count(); ++i)
    if (status_name(static_cast<int>(i)) == name) return static_cast<int>(i);
  return std::nullopt;
}

std::optional<int> Model::find_event(std::string_view name) const {
  for (std::size_t i = 0; i < events.size(); ++i)
    if (events[i].name == name) return static_cast<int>(i);
  return std::nullopt;
}

std::optional<int> Model::find_data(std::string_view name) const {
  for (std::size_t i = 0; i < data.size(); ++i)
    if (data[i].name == name) return static_cast<int>(i);
  return std::nullopt;
}

std::vector<std::string> Model::status_names() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < status_count(); ++i)
    names.push_back(status_name(static_cast<int>(i)));
  return names;
}

}  // namespace cwf::gsm
