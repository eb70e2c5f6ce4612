#include "runtime/actor/actor_ports.hpp"

#include <algorithm>

namespace cwf {

namespace {

struct Placeholder {
  std::size_t open = std::string::npos;   // of '<'
  std::size_t close = std::string::npos;  // of '>'
};

Placeholder placeholder(std::string_view name) {
  Placeholder p;
  p.open = name.find('<');
  if (p.open != std::string_view::npos) p.close = name.find('>', p.open);
  if (p.close == std::string_view::npos) p.open = std::string_view::npos;
  return p;
}

std::string listed(std::span<const PortSpec> ports) {
  std::string out;
  for (const PortSpec& port : ports)
    out += (out.empty() ? "" : ", ") + port.name;
  return "[" + out + "]";
}

// What differs between one side's declaration and an actor's ports of that side ("" if none).
std::string side_mismatch(const char* side, const std::vector<PortSpec>& declared,
                          std::span<const PortSpec> actual) {
  std::vector<const PortSpec*> fixed, families;
  for (const PortSpec& port : declared) {
    if (is_port_family(port)) {
      families.push_back(&port);
    } else if (!families.empty()) {
      return std::string(side) + " port '" + port.name + "' is declared after the family '" +
             families.front()->name + "': fixed ports come first";
    } else {
      fixed.push_back(&port);
    }
  }
  const std::string heading =
      std::string(side) + " " + listed(actual) + " are not the declared " + listed(declared) + ": ";
  for (std::size_t i = 0; i < fixed.size(); ++i)
    if (i >= actual.size() || actual[i].name != fixed[i]->name)
      return heading + "port " + std::to_string(i) + " should be '" + fixed[i]->name + "'";
  for (std::size_t i = fixed.size(); i < actual.size(); ++i) {
    bool member = std::any_of(families.begin(), families.end(), [&](const PortSpec* family) {
      return is_family_member(*family, actual[i].name);
    });
    if (!member) return heading + "'" + actual[i].name + "' is not declared";
  }
  return "";
}

}  // namespace

bool is_port_family(const PortSpec& port) {
  return placeholder(port.name).open != std::string::npos;
}

std::string family_member_name(const PortSpec& family, std::string_view value) {
  Placeholder p = placeholder(family.name);
  if (p.open == std::string::npos) return family.name;
  return family.name.substr(0, p.open) + std::string(value) + family.name.substr(p.close + 1);
}

bool is_family_member(const PortSpec& family, std::string_view name) {
  Placeholder p = placeholder(family.name);
  if (p.open == std::string::npos) return false;
  std::string_view prefix = std::string_view(family.name).substr(0, p.open);
  std::string_view suffix = std::string_view(family.name).substr(p.close + 1);
  return name.size() > prefix.size() + suffix.size() && name.starts_with(prefix) &&
         name.ends_with(suffix) && placeholder(name).open == std::string::npos;
}

std::string ActorPorts::mismatch(std::span<const PortSpec> actual_inputs,
                                 std::span<const PortSpec> actual_outputs) const {
  std::string problem = side_mismatch("inputs", inputs, actual_inputs);
  if (problem.empty()) problem = side_mismatch("outputs", outputs, actual_outputs);
  return problem;
}

}  // namespace cwf
