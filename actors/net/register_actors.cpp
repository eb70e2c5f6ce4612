#include "actors/net/register_actors.hpp"

#include "actors/net/http_sink.hpp"
#include "actors/net/http_source.hpp"
#include "actors/net/tcp_sink.hpp"
#include "actors/net/tcp_source.hpp"
#include "actors/net/websocket_sink.hpp"
#include "actors/net/websocket_source.hpp"

namespace cwf::net {

void register_actors(ActorRegistry& registry) {
  registry.add(tcp_source_type());
  registry.add(tcp_sink_type());
  registry.add(websocket_source_type());
  registry.add(websocket_sink_type());
  registry.add(http_source_type());
  registry.add(http_sink_type());
}

}  // namespace cwf::net
