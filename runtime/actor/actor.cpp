#include "runtime/actor/actor.hpp"

namespace cwf {

namespace {
int index_of(std::span<const PortSpec> ports, std::string_view name) {
  for (std::size_t i = 0; i < ports.size(); ++i)
    if (ports[i].name == name) return static_cast<int>(i);
  return -1;
}
}  // namespace

int Actor::input_index(std::string_view name) const {
  return index_of(inputs_, name);
}
int Actor::output_index(std::string_view name) const {
  return index_of(outputs_, name);
}

Actor::Actor(const ActorPorts& ports) {
  for (const PortSpec& port : ports.inputs)
    if (!is_port_family(port)) inputs_.push_back(port);
  for (const PortSpec& port : ports.outputs)
    if (!is_port_family(port)) outputs_.push_back(port);
}

int Actor::add_family_input(const PortSpec& family, std::string_view value) {
  return add_input(family_member_name(family, value), family.doc);
}

int Actor::add_family_output(const PortSpec& family, std::string_view value) {
  return add_output(family_member_name(family, value), family.doc);
}

int Actor::add_input(std::string name, std::string doc) {
  inputs_.push_back({std::move(name), std::move(doc)});
  return static_cast<int>(inputs_.size() - 1);
}

int Actor::add_output(std::string name, std::string doc) {
  outputs_.push_back({std::move(name), std::move(doc)});
  return static_cast<int>(outputs_.size() - 1);
}

}  // namespace cwf
