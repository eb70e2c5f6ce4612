// guard_scheduler: a dependency workflow enforced by guard actors (Singh §4.3). A composite
// actor whose inner workflow has one event_guard actor per event type, a dispatcher sending
// each attempt to its event's actor, and a `messages` connection from each event actor to every
// actor whose guard mentions it (or whose event it mentions: promises and trigger requests go
// that way). Attempts in on `attempts`, outcomes out on `outcomes`.
#pragma once

#include <memory>

#include "actors/guards/dependency_file.hpp"
#include "runtime/graph/workflow.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::guards {

// The inner workflow: boundary `attempts` → `dispatch` → `event_<name>` actors → `outcomes`.
std::unique_ptr<Workflow> guard_workflow(const DependencySet& dependencies);

// The guard scheduler's ports: those of its sub-workflow's boundary.
inline const ActorPorts kGuardSchedulerPorts{
    {{"attempts", "{event: NAME or ~NAME, params…}: a task agent attempts the event"}},
    {{"outcomes",
      "{event, params…, outcome}: outcome accepted, parked, released (a parked attempt "
      "proceeds), rejected (the complement happened instead), triggered, refused, duplicate"}}};

// The composite actor running `guard_workflow` under a one-worker, in-order director.
std::unique_ptr<Actor> make_guard_scheduler(const DependencySet& dependencies);

ActorType guard_scheduler_type();

}  // namespace cwf::guards
