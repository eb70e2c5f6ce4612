#include "cli/registries.hpp"

#include "actors/eca/register_actors.hpp"
#include "actors/gsm/register_actors.hpp"
#include "actors/guards/register_actors.hpp"
#include "actors/net/register_actors.hpp"
#include "actors/pubsub/register_actors.hpp"
#include "actors/register.hpp"
#include "actors/spatial/register_actors.hpp"
#include "linear_road/register_actors.hpp"
#include "schedulers/register.hpp"

namespace cwf::cli {

const ActorRegistry& actor_registry() {
  static const ActorRegistry registry = [] {
    ActorRegistry r;
    actors::register_all(r);
    pubsub::register_actors(r);
    eca::register_actors(r);
    guards::register_actors(r);
    gsm::register_actors(r);
    net::register_actors(r);
    spatial::register_actors(r);
    lr::register_actors(r);
    return r;
  }();
  return registry;
}

const SchedulerRegistry& scheduler_registry() {
  static const SchedulerRegistry registry = [] {
    SchedulerRegistry r;
    schedulers::register_all(r);
    return r;
  }();
  return registry;
}

}  // namespace cwf::cli
