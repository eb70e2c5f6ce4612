// Declared ports of an actor type and references to ports of actors in a workflow.
#pragma once

#include <string>

namespace cwf {

using ActorId = std::uint32_t;

struct PortSpec {
  std::string name;
  std::string doc;
};

// An end of a connection in a built workflow.
struct PortAddress {
  ActorId actor = 0;
  int port = 0;
  friend bool operator==(const PortAddress&, const PortAddress&) = default;
};

}  // namespace cwf
