// An actor type's ports, declared once. The actor class holds them as a constant (`kPorts`): its
// constructor declares exactly those (Actor's constructor takes them) and its registration
// (ActorType::ports) documents the same object for `cwf actors` and the docs. Written twice, once
// in the constructor and once in the registration, the two lists drifted apart; written once,
// they cannot.
//
// Ports made from parameters (a broker's `to_<neighbour>`, merge's `in<i>`) are a family: one
// declared port whose name holds a placeholder in angle brackets. The constructor declares each
// member with Actor::add_family_input / add_family_output (the placeholder replaced by a value).
// A side lists its fixed ports first, then its families, so that fixed port i is index i.
// ActorPorts::mismatch checks an actor's ports against the declaration, members included.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/actor/port.hpp"

namespace cwf {

struct ActorPorts {
  std::vector<PortSpec> inputs;
  std::vector<PortSpec> outputs;

  // "" when `inputs` and `outputs` (an actor's ports) are what this declares: on each side the
  // fixed ports in order, then only members of its families; otherwise what differs.
  std::string mismatch(std::span<const PortSpec> actual_inputs,
                       std::span<const PortSpec> actual_outputs) const;
};

// Whether `port` is a family of ports: its name holds a placeholder (`to_<neighbour>`).
bool is_port_family(const PortSpec& port);
// The member of `family` for `value`: to_<neighbour> and "b2" give to_b2.
std::string family_member_name(const PortSpec& family, std::string_view value);
// Whether `name` is a member of `family`: to_b2 of to_<neighbour> (a value, and no placeholder).
bool is_family_member(const PortSpec& family, std::string_view name);

}  // namespace cwf
