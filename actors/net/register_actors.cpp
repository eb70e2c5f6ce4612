#include "actors/net/register_actors.hpp"

#include "actors/net/tcp_source.hpp"

namespace cwf::net {

void register_actors(ActorRegistry& registry) {
  registry.add(tcp_source_type());
}

}  // namespace cwf::net
