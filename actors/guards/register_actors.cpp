#include "actors/guards/register_actors.hpp"

#include "actors/guards/guard_scheduler.hpp"

namespace cwf::guards {

void register_actors(ActorRegistry& registry) {
  registry.add(guard_scheduler_type());
}

}  // namespace cwf::guards
