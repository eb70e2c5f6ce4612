#include "actors/spatial/register_actors.hpp"

#include "actors/spatial/catalog_match.hpp"
#include "actors/spatial/tag_interest.hpp"

namespace cwf::spatial {

void register_actors(ActorRegistry& registry) {
  registry.add(tag_interest_type());
  registry.add(catalog_match_type());
}

}  // namespace cwf::spatial
