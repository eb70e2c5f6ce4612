#include "actors/guards/dependency_file.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "actors/guards/event_parser.hpp"
#include "actors/guards/guard_synthesis.hpp"
#include "actors/guards/guard_work_limit.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/loading/yaml_value.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::guards {

std::string base_name(const std::string& event_type) {
  return event_type.substr(0, event_type.find('['));
}

std::vector<std::string> parameters_of(const std::string& event_type) {
  std::vector<std::string> names;
  auto open = event_type.find('[');
  if (open == std::string::npos) return names;
  std::string inside = event_type.substr(open + 1, event_type.rfind(']') - open - 1);
  std::stringstream stream(inside);
  std::string name;
  while (std::getline(stream, name, ',')) {
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

void DependencySet::add_dependency(EventExpr dependency, std::string text) {
  for (const std::string& event : events_of(dependency))
    if (std::find(events.begin(), events.end(), event) == events.end()) events.push_back(event);
  dependencies.push_back(std::move(dependency));
  texts.push_back(std::move(text));
}

std::string DependencySet::parameters_mismatch() const {
  for (const std::string& event : events)
    if (parameters_of(event) != parameters_of(events.front()))
      return "events '" + events.front() + "' and '" + event +
             "' have different parameters; all events of a workflow are instantiated per "
             "binding of the same parameters";
  return "";
}

EventAttributes DependencySet::attributes_of(const std::string& event) const {
  auto it = attributes.find(event);
  return it == attributes.end() ? EventAttributes{} : it->second;
}

Guard DependencySet::guard(const Literal& literal) const {
  GuardWorkLimit limit(kWorkflowGuardSteps, guard_steps_used,
                       "the guard of '" + literal.text() + "'");
  Guard guard = guard_in_workflow(dependencies, literal);
  guard_steps_used = limit.steps_used();
  return guard;
}

namespace {

bool read_bool(const YamlEntry& entry, const std::string& file) {
  std::optional<bool> value;
  if (entry.value.IsScalar()) value = parse_yaml_bool(entry.value.Scalar());
  if (!value)
    throw LoadError(value_location(entry, file), "expected true or false for '" + entry.key +
                                                     "', got " + describe_yaml(entry.value));
  return *value;
}

EventExpr read_dependency(const YAML::Node& node, const std::string& file) {
  SourceLocation where = yaml_location(node, file);
  if (!node.IsScalar())
    throw LoadError(where,
                    "expected a dependency expression (a string), got " + describe_yaml(node));
  try {
    return parse_event_expression(node.Scalar());
  } catch (const ParseError& e) {
    // A quoted scalar starts one column after its mark; the parser counts from 1.
    bool quoted = node.Tag() == "!";
    where.column += static_cast<int>(e.column()) - 1 + (quoted ? 1 : 0);
    throw LoadError(where, "in dependency '" + node.Scalar() + "': " + e.message());
  }
}

}  // namespace

DependencySet read_dependency_set(const YAML::Node& root, const std::string& file) {
  if (!root.IsMap())
    throw LoadError(
        yaml_location(root, file, {file, 1, 1}),
        "expected a map with 'dependencies' (and optionally 'events'), got " + describe_yaml(root));
  DependencySet set;
  const std::vector<std::string> keys{"dependencies", "events", "name", "description"};
  YAML::Node events_node;
  bool has_dependencies = false;
  for (const YamlEntry& entry : yaml_map_entries(root, file)) {
    if (entry.key == "dependencies") {
      has_dependencies = true;
      if (!entry.value.IsSequence())
        throw LoadError(
            value_location(entry, file),
            "expected a list of dependency expressions, got " + describe_yaml(entry.value));
      for (const YAML::Node& item : entry.value) {
        set.add_dependency(read_dependency(item, file), item.Scalar());
        // Checked per dependency so that the error points at the first one that mixes.
        if (std::string mismatch = set.parameters_mismatch(); !mismatch.empty())
          throw LoadError(yaml_location(item, file), mismatch);
      }
    } else if (entry.key == "events") {
      events_node = entry.value;
    } else if (entry.key != "name" && entry.key != "description") {
      throw LoadError(key_location(entry, file),
                      "unknown key '" + entry.key + "'" + did_you_mean_suffix(entry.key, keys));
    }
  }
  if (!has_dependencies)
    throw LoadError(yaml_location(root, file, {file, 1, 1}), "expected a 'dependencies' list");
  if (events_node && !events_node.IsNull()) {
    if (!events_node.IsMap())
      throw LoadError(
          yaml_location(events_node, file),
          "expected a map from event name to attributes, got " + describe_yaml(events_node));
    for (const YamlEntry& event : yaml_map_entries(events_node, file, "event")) {
      // An event may be named with or without its parameters.
      std::string type = event.key;
      for (const std::string& known : set.events)
        if (base_name(known) == event.key) type = known;
      bool mentioned = std::find(set.events.begin(), set.events.end(), type) != set.events.end();
      EventAttributes attributes;
      if (!event.value.IsNull()) {
        if (!event.value.IsMap())
          throw LoadError(value_location(event, file),
                          "expected attributes {triggerable: BOOL, rejectable: BOOL} for event '" +
                              event.key + "', got " + describe_yaml(event.value));
        for (const YamlEntry& attribute : yaml_map_entries(event.value, file, "attribute")) {
          if (attribute.key == "triggerable") {
            attributes.triggerable = read_bool(attribute, file);
          } else if (attribute.key == "rejectable") {
            attributes.rejectable = read_bool(attribute, file);
          } else if (attribute.key == "free") {
            attributes.free = read_bool(attribute, file);
          } else {
            throw LoadError(
                key_location(attribute, file),
                "unknown event attribute '" + attribute.key +
                    "' (expected triggerable, rejectable or free)" +
                    did_you_mean_suffix(attribute.key, {"triggerable", "rejectable", "free"}));
          }
        }
      }
      // A misspelt name would otherwise become a new event no dependency constrains, and the
      // attributes meant for the real one would silently be lost.
      if (!mentioned && !attributes.free) {
        std::vector<std::string> names;
        for (const std::string& known : set.events)
          names.push_back(base_name(known));
        throw LoadError(key_location(event, file),
                        "no dependency mentions event '" + event.key + "'" +
                            did_you_mean_suffix(base_name(event.key), names) +
                            " (an event no dependency constrains must be declared 'free: true')");
      }
      if (!mentioned) {
        set.events.push_back(type);
        if (std::string mismatch = set.parameters_mismatch(); !mismatch.empty())
          throw LoadError(key_location(event, file), mismatch);
      }
      set.attributes[type] = attributes;
    }
  }
  return set;
}

DependencySet parse_dependency_text(std::string_view yaml, const std::string& file_for_errors) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    throw LoadError(yaml_location(e.mark, file_for_errors), e.msg);
  }
  return read_dependency_set(root, file_for_errors);
}

DependencySet load_dependency_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError({path, 0, 0}, "cannot open the file");
  std::stringstream text;
  text << in.rdbuf();
  return parse_dependency_text(text.str(), path);
}

}  // namespace cwf::guards
