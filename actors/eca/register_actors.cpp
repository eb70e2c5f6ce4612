#include "actors/eca/register_actors.hpp"

namespace cwf::eca {

void register_actors(ActorRegistry& registry) {
  (void)registry;
}

}  // namespace cwf::eca
