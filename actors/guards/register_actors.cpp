#include "actors/guards/register_actors.hpp"

namespace cwf::guards {

void register_actors(ActorRegistry& registry) {
  (void)registry;
}

}  // namespace cwf::guards
