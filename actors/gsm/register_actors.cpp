#include "actors/gsm/register_actors.hpp"

namespace cwf::gsm {

void register_actors(ActorRegistry& registry) {
  (void)registry;
}

}  // namespace cwf::gsm
